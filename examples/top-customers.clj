;; Top customers by revenue, from a year of orders.
;;
;;   ptc-lisp examples/top-customers.clj --data examples/orders.json
;;
;; data/orders is the "orders" array of the --data file. Keys arrive as strings
;; ("customer_id"); keyword access finds them anyway: (:customer-id order).

(defn money
  "Rounds an amount to cents."
  [amount]
  (/ (round (* amount 100)) 100.0))

(def completed
  (filter #(= (:status %) "completed") data/orders))

(defn summarize
  "One row per customer: how many orders, revenue, average order, favourite category."
  [[customer orders]]
  (let [revenue (sum-by :total orders)
        categories (->> orders
                        (mapcat :items)
                        (map :category)
                        frequencies)]
    {:customer customer
     :region (:region (first orders))
     :orders (count orders)
     :revenue (money revenue)
     :average-order (money (/ revenue (count orders)))
     :top-category (key (apply max-key val categories))}))

(def ranking
  (->> completed
       (group-by :customer)
       (map summarize)
       (sort-by :revenue >)))

(println "Completed orders:" (count completed) "of" (count data/orders)
         "| revenue:" (money (sum-by :total completed)))

(doseq [[rank row] (map-indexed vector (take 5 ranking))]
  (println (str (inc rank) ". " (:customer row) " (" (:region row) ")"
                " revenue " (:revenue row)
                " from " (:orders row) " orders, mostly " (:top-category row))))

;; The program's value: the top five rows.
(vec (take 5 ranking))
