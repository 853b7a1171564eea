/** `'name`: a symbol as data. Only discovery forms and `case` use them. */
import { CustomValue } from "./custom-value.js";

export class QuotedSymbol extends CustomValue {
  constructor(readonly name: string) {
    super();
  }
  print(): string {
    return `'${this.name}`;
  }
  override text(): string {
    return this.name;
  }
  canonical(): string {
    return `'${this.name}`;
  }
  get typeName(): string {
    return "symbol";
  }
  toJSON(): unknown {
    return this.name;
  }
}
