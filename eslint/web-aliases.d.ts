// Types of web-aliases.js for the TypeScript that reads it (its lint test).
import type { Rule } from 'eslint';
export declare const webAliasesRule: Rule.RuleModule;
