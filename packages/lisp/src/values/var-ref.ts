/** `#'name`: what `def` returns. Prints as #'name; a program reading `#'x` gets x's value. */
import { CustomValue } from "./custom-value.js";

export class VarRef extends CustomValue {
  constructor(readonly name: string) {
    super();
  }
  print(): string {
    return `#'${this.name}`;
  }
  canonical(): string {
    return `#'${this.name}`;
  }
  get typeName(): string {
    return "var";
  }
  toJSON(): unknown {
    return `#'${this.name}`;
  }
}
