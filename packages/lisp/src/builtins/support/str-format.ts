/**
 * `format`: a deliberately small printf. Conversions %s %d %f %e %x %o and %%; an optional
 * precision (`%.2f`) counts for %f and %e; width and the `-`/`0` flags are accepted and ignored,
 * as in the reference (`"%5.2f|%-4d"` gives "3.14|7"). Extra arguments are ignored; too few, or
 * an argument of the wrong kind, is an error that says which conversion wanted what.
 */
import { LispError } from "../../errors.js";
import { print } from "../../format/print.js";
import { active } from "../../runtime/context.js";
import { WholeFloat } from "../../values/numbers.js";
import { checkTextLength } from "../../values/text-limit.js";
import { textOf } from "./str-text.js";

function formatError(message: string): LispError {
  return new LispError("runtime_error", message);
}

function shown(value: unknown): string {
  return print(value, { maxChars: 60, maxItems: 10, maxStringChars: 60 });
}

function plainNumber(value: unknown): number | bigint | undefined {
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (value instanceof WholeFloat) return value.value;
  return undefined;
}

/** Fixed notation with `digits` decimals, also for magnitudes where toFixed switches to exponents. */
export function fixed(value: number, digits: number): string {
  if (Math.abs(value) < 1e21) {
    const text = value.toFixed(digits);
    return Object.is(value, -0) ? `-${text}` : text;
  }
  const whole = BigInt(value).toString(); // exact: doubles this large have no fraction
  return digits > 0 ? `${whole}.${"0".repeat(digits)}` : whole;
}

/** Scientific notation as C's %e writes it: at least two exponent digits (`1.234500e+03`). */
export function scientific(value: number, digits: number): string {
  const text = value.toExponential(digits);
  const at = text.indexOf("e");
  const sign = text[at + 1] as string;
  const exponent = text.slice(at + 2);
  return `${text.slice(0, at)}e${sign}${exponent.length < 2 ? `0${exponent}` : exponent}`;
}

function specialText(value: number | bigint): string | undefined {
  if (typeof value === "bigint" || Number.isFinite(value)) return undefined;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}

function integerText(value: unknown, conversion: string, radix: number): string {
  if (typeof value === "bigint") {
    // Superlinear in V8 (and bounded by the size of an integer): charged by its length.
    const text = value.toString(radix);
    active.work(text.length);
    return text;
  }
  if (typeof value === "number" && Number.isInteger(value)) return value.toString(radix);
  if (conversion === "d") {
    const whole = value instanceof WholeFloat ? value.value : value;
    if (typeof whole === "number" && Number.isInteger(whole)) return BigInt(whole).toString();
  }
  throw formatError(`format: %${conversion} expects an integer, got: ${shown(value)}`);
}

function floatText(value: unknown, conversion: "f" | "e", precision: number): string {
  const number = plainNumber(value);
  if (number === undefined)
    throw formatError(`format: %${conversion} expects a number, got: ${shown(value)}`);
  const special = specialText(number);
  if (special !== undefined) return special;
  const double = Number(number);
  return conversion === "f" ? fixed(double, precision) : scientific(double, precision);
}

/** One step of a template: text as written, a conversion, or the error the template holds there. */
type Step =
  | string
  | { readonly conversion: string; readonly precision: number | undefined }
  | { readonly failure: string };

/**
 * The steps of a template, in order, as formatText meets them: the template's own errors become
 * steps too, so a program still gets whichever error comes first (a missing argument before a
 * bad specifier later in the text, as the scan finds them).
 */
function stepsOf(template: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const length = template.length;
  while (i < length) {
    const percent = template.indexOf("%", i);
    if (percent < 0) {
      steps.push(template.slice(i));
      break;
    }
    steps.push(template.slice(i, percent));
    i = percent + 1;
    if (template[i] === "%") {
      steps.push("%");
      i++;
      continue;
    }
    // Ignored flags and width, then an optional precision.
    while (template[i] === "-" || template[i] === "0") i++;
    while (i < length && template.charCodeAt(i) >= 48 && template.charCodeAt(i) <= 57) i++;
    let precision: number | undefined;
    if (template[i] === ".") {
      const start = ++i;
      while (i < length && template.charCodeAt(i) >= 48 && template.charCodeAt(i) <= 57) i++;
      if (i === start) {
        steps.push({
          failure: `format: expected digits after '.' in ${JSON.stringify(template.slice(percent, i + 1))}`,
        });
        return steps;
      }
      precision = Math.min(Number(template.slice(start, i)), 100);
    }
    const conversion = template[i];
    if (conversion === undefined || !"sdfexo".includes(conversion)) {
      steps.push({
        failure: `format: unsupported format specifier ${JSON.stringify(template.slice(percent, i + 1))}; use %s, %d, %f, %.2f, %e, %x, %o or %%`,
      });
      return steps;
    }
    i++;
    steps.push({ conversion, precision });
  }
  return steps;
}

/**
 * Templates already read, by their text: a program formats thousands of rows with one template.
 * Only short templates, and only so many: a program that builds templates from data does not
 * grow the cache without bound.
 */
const readTemplates = new Map<string, readonly Step[]>();
const CACHED_TEMPLATE_CHARS = 512;
const CACHED_TEMPLATES = 256;

function templateSteps(template: string): readonly Step[] {
  const cached = readTemplates.get(template);
  if (cached !== undefined) return cached;
  const steps = stepsOf(template);
  if (template.length <= CACHED_TEMPLATE_CHARS) {
    if (readTemplates.size >= CACHED_TEMPLATES) readTemplates.clear();
    readTemplates.set(template, steps);
  }
  return steps;
}

export function formatText(template: string, args: readonly unknown[]): string {
  const out = new FormattedText();
  const steps = templateSteps(template);
  let next = 0;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s] as Step;
    if (typeof step === "string") {
      out.add(step);
      continue;
    }
    if ("failure" in step) throw formatError(step.failure);
    const { conversion, precision } = step;
    if (next >= args.length) {
      throw formatError(
        `format: not enough arguments for format string ${JSON.stringify(template)} (${args.length} given)`,
      );
    }
    const arg = args[next++];
    switch (conversion) {
      case "s":
        out.add(textOf(arg));
        break;
      case "d":
        out.add(integerText(arg, "d", 10));
        break;
      case "x":
        out.add(integerText(arg, "x", 16));
        break;
      case "o":
        out.add(integerText(arg, "o", 8));
        break;
      default:
        out.add(floatText(arg, conversion as "f" | "e", precision ?? 6));
    }
  }
  return out.text();
}

/**
 * The text `format` builds: its pieces, charged to the memory budget as they come (before the
 * text is joined), and to the clock one unit a piece.
 */
class FormattedText {
  // Concatenated as the pieces come: V8 links them and copies nothing until the text is read,
  // which beats joining an array of them.
  private joined = "";
  private length = 0;
  private charged = 0;

  add(piece: string): void {
    this.length += piece.length;
    if (this.length - this.charged > 4096) this.charge();
    this.joined += piece;
    active.work(1);
  }

  text(): string {
    this.charge();
    return this.joined;
  }

  private charge(): void {
    checkTextLength(this.length);
    active.allocate(this.length - this.charged);
    this.charged = this.length;
  }
}
