/** Every builtin family, and the registry built from them. */

import { aggregationBuiltins } from "./aggregation.js";
import { arithmeticBuiltins } from "./arithmetic.js";
import { combinatorsBuiltins } from "./combinators.js";
import { comparisonBuiltins } from "./comparison.js";
import { conversionBuiltins } from "./conversion.js";
import type { BuiltinDefinition } from "./definition.js";
import { groupTotalsBuiltins } from "./group-totals.js";
import { higherOrderBuiltins } from "./higher-order.js";
import { internalBuiltins } from "./internal.js";
import { interopBuiltins } from "./interop.js";
import { jsonBuiltins } from "./json.js";
import { lazyPipelineBuiltins } from "./lazy-pipeline.js";
import { mapsBuiltins } from "./maps.js";
import { mathBuiltins } from "./math.js";
import { outputBuiltins } from "./output.js";
import { predicatesBuiltins } from "./predicates.js";
import { regexBuiltins } from "./regex.js";
import { Registry } from "./registry.js";
import { sequencesBuiltins } from "./sequences.js";
import { setsBuiltins } from "./sets.js";
import { sortedCollectionsBuiltins } from "./sorted-collections.js";
import { sortedPrefixBuiltins } from "./sorted-prefix.js";
import { stringsBuiltins } from "./strings.js";
import { walkBuiltins } from "./walk.js";

export const ALL_BUILTINS: readonly BuiltinDefinition[] = [
  ...arithmeticBuiltins,
  ...comparisonBuiltins,
  ...outputBuiltins,
  ...internalBuiltins,
  ...sequencesBuiltins,
  ...setsBuiltins,
  ...higherOrderBuiltins,
  ...aggregationBuiltins,
  ...groupTotalsBuiltins,
  ...combinatorsBuiltins,
  ...walkBuiltins,
  ...mapsBuiltins,
  ...lazyPipelineBuiltins,
  ...sortedPrefixBuiltins,
  ...sortedCollectionsBuiltins,
  ...predicatesBuiltins,
  ...mathBuiltins,
  ...conversionBuiltins,
  ...stringsBuiltins,
  ...regexBuiltins,
  ...jsonBuiltins,
  ...interopBuiltins,
];

/** The registry every run uses: builtins are fixed at load time and shared by all runs. */
export const registry = new Registry(ALL_BUILTINS);
