// Types of function-size.js for the TypeScript that reads it (its lint test).
import type { Rule } from 'eslint';
export declare const functionSizeRule: Rule.RuleModule;
