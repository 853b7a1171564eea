import { encode } from "gpt-tokenizer"; import { readFileSync } from "node:fs";
const t = readFileSync(process.argv[2], "utf8").replace(/\n$/, ""); console.log(encode(t).length);
