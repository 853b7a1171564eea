/**
 * Runs before every test file. A pure node the fast tier has no generated code for fails the run
 * instead of quietly falling back to the general evaluator (packages/lisp/src/compiler/fast-tier.ts),
 * so a special form added without its generated-code case fails the tests that use it.
 */
import { generationPolicy } from "./packages/lisp/src/compiler/fast-tier.js";

generationPolicy.failOnGap = true;
