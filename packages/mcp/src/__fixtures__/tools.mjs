// Tools for the ptc-mcp tests, as a user's --tools module would export them.
let searches = 0;

export const search_logs = {
  description: "Search log events.",
  signature: "(query :string) -> [{id :int, level :string, message :string}]",
  expose: "both",
  cache: true,
  execute: ({ query }) => {
    searches++;
    return Array.from({ length: 30 }, (_, index) => ({
      id: index + 1,
      level: index % 3 === 0 ? "error" : "info",
      message: `${query} event ${index + 1}`,
    }));
  },
};

export function search_count() {
  return searches;
}

export function noisy() {
  // A tool that logs: ptc-mcp must keep this off stdout, where the protocol runs.
  console.log("noisy tool says hello");
  return "ok";
}
