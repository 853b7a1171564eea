/** walk, prewalk, postwalk, tree-seq through `run`. */
import { describe, expect, test } from "vitest";
import { run } from "../run.js";
import { evaluate, failure } from "../test-support.js";

const echo = { tools: { echo: async (args: Record<string, unknown>) => args } };

describe("walk", () => {
  test("inner on each element, outer on the rebuilt collection", async () => {
    expect(await evaluate("(walk inc #(apply + %) [1 2 3])")).toBe("9");
    expect(await evaluate("(walk inc identity #{1 2 3})")).toBe("#{2 3 4}");
    expect(await evaluate("(walk (fn [[k v]] [v k]) identity {:a 1 :b 2})")).toBe("{1 :a 2 :b}");
    expect(await evaluate("(walk inc inc 5)")).toBe("6");
    expect(await evaluate("(walk identity identity nil)")).toBe("nil");
  });

  test("map entries must stay [key value] pairs", async () => {
    const error = await failure("(walk (fn [e] 1) identity {:a 1})");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("[key value]");
  });
});

describe("prewalk and postwalk", () => {
  test("transform every node of nested data", async () => {
    expect(await evaluate("(postwalk #(if (number? %) (inc %) %) {:a 1 :b {:c [2 3]}})")).toBe(
      "{:a 2 :b {:c [3 4]}}",
    );
    expect(await evaluate("(prewalk #(if (number? %) (inc %) %) [1 [2 #{3}]])")).toBe("[2 [3 #{4}]]");
    expect(await evaluate("(postwalk #(if (vector? %) (apply + %) %) [[1 2] [3 4]])")).toBe("10");
    expect(await evaluate("[(postwalk identity nil) (prewalk inc 5) (postwalk identity [])]")).toBe(
      "[nil 6 []]",
    );
  });

  test("prewalk sees a node before its children, postwalk after", async () => {
    const pre = await run("(prewalk #(do (println (pr-str %)) %) [1 [2]])");
    expect(pre.prints).toEqual(["[1 [2]]", "1", "[2]", "2"]);
    const post = await run("(postwalk #(do (println (pr-str %)) %) [1 [2]])");
    expect(post.prints).toEqual(["1", "2", "[2]", "[1 [2]]"]);
  });

  test("prewalk can replace a subtree before it is walked", async () => {
    expect(
      await evaluate(
        "(prewalk #(if (and (map? %) (:value %)) (update % :value inc) %) {:value 1 :nested {:value 2}})",
      ),
    ).toBe("{:nested {:value 3} :value 2}");
  });

  test("host maps are walked into program maps", async () => {
    expect(
      await evaluate("(postwalk #(if (number? %) (* 2 %) %) data/doc)", {
        context: { doc: { a: [1, { b: 2 }] } },
      }),
    ).toBe('{"a" [2 {"b" 4}]}');
  });

  test("walkers that call tools visit nodes in order", async () => {
    const result = await run("(postwalk #(if (number? %) (:v (tool/echo {:v (* 10 %)})) %) [1 [2 3]])", echo);
    expect(result.ok && result.value).toEqual([10, [20, 30]]);
    expect(result.toolCalls.map((call) => call.args.v)).toEqual([10, 20, 30]);
  });
});

describe("tree-seq", () => {
  test("depth first, parents before children", async () => {
    expect(await evaluate("(tree-seq vector? seq [1 [2 [3]]])")).toBe("[[1 [2 [3]]] 1 [2 [3]] 2 [3] 3]");
    expect(await evaluate("(tree-seq vector? seq 42)")).toBe("[42]");
    expect(await evaluate("(tree-seq vector? seq [])")).toBe("[[]]");
  });

  test("keywords select branches and children", async () => {
    const tree = "{:id 1 :children [{:id 2 :children [{:id 4}]} {:id 3 :children nil}]}";
    expect(await evaluate(`(map :id (tree-seq :children :children ${tree}))`)).toBe("[1 2 4 3]");
  });

  test("children must be a collection", async () => {
    const error = await failure("(tree-seq (constantly true) (constantly 5) {:a 1})");
    expect(error.reason).toBe("type_error");
    expect(error.message).toContain("children function must return a collection");
  });

  test("children fetched with tool calls", async () => {
    const result = await run(
      "(map :id (tree-seq :kids #(:kids (tool/echo {:kids (:kids %)})) {:id 1 :kids [{:id 2} {:id 3}]}))",
      echo,
    );
    expect(result.ok && result.value).toEqual([1, 2, 3]);
  });
});
