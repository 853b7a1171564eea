/** The names of the session tools (`--sessions`), reserved like `lisp_eval`. */
export const SESSION_TOOL_NAMES = [
  "lisp_session_start",
  "lisp_session_eval",
  "lisp_session_list",
  "lisp_session_inspect",
  "lisp_session_forget",
  "lisp_session_close",
] as const;

export type SessionToolName = (typeof SESSION_TOOL_NAMES)[number];
