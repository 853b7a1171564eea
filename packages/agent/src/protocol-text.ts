/**
 * Protocol helpers a host needs to read the tool messages the agent writes, re-exported so that
 * it need not depend on @ptc/protocol itself.
 */
export { unwrapUntrusted } from "@ptc/protocol";
