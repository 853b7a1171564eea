/** Builtins: conversion (being written). */
import type { BuiltinDefinition } from "./definition.js";

export const conversionBuiltins: BuiltinDefinition[] = [];
