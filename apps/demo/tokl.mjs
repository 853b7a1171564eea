import { encode } from "gpt-tokenizer"; import { readFileSync } from "node:fs";
for (const l of readFileSync(process.argv[2], "utf8").split("\n")) console.log(String(encode(l).length).padStart(4), l.slice(0, 90));
