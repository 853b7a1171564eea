/**
 * Signing a paused run's state: HMAC-SHA256 over its canonical JSON (everything but the signature
 * itself), with Web Crypto, so the root entry runs on edge runtimes too (no `node:` import).
 * A state whose signature does not verify is refused before anything of it is used: without this
 * a forged ledger could feed a program tool results that no tool returned.
 */
import { canonicalJson } from "./canonical-json.js";

const encoder = new TextEncoder();

/** The part of Web Crypto's SubtleCrypto used here (typed here: the package's types have no DOM lib). */
interface HmacCrypto {
  importKey(
    format: "raw",
    keyData: Uint8Array,
    algorithm: { readonly name: "HMAC"; readonly hash: "SHA-256" },
    extractable: boolean,
    usages: readonly ("sign" | "verify")[],
  ): Promise<HmacKey>;
  sign(algorithm: "HMAC", key: HmacKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: "HMAC", key: HmacKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

/** An imported key: opaque. */
type HmacKey = object;

function subtle(): HmacCrypto {
  const crypto = (globalThis as { crypto?: { subtle?: HmacCrypto } }).crypto;
  if (crypto?.subtle === undefined) {
    throw new Error(
      "stateSecret needs Web Crypto (globalThis.crypto.subtle), which this runtime does not provide",
    );
  }
  return crypto.subtle;
}

async function key(secret: string): Promise<HmacKey> {
  return subtle().importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The signature of `unsigned` (a state without its `signature` field). */
export async function signState(unsigned: object, secret: string): Promise<string> {
  const signature = await subtle().sign("HMAC", await key(secret), encoder.encode(canonicalJson(unsigned)));
  return toBase64Url(new Uint8Array(signature));
}

/** Whether `signature` is the signature of `unsigned` under `secret` (compared in constant time by Web Crypto). */
export async function verifyState(unsigned: object, signature: string, secret: string): Promise<boolean> {
  const bytes = fromBase64Url(signature);
  if (bytes === undefined) return false;
  return subtle().verify("HMAC", await key(secret), bytes, encoder.encode(canonicalJson(unsigned)));
}
