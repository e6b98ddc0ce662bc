// ESLint for the browser code in src/tabletown/web/static and the boards' folders (make test and make lint run it; ESLint
// itself is installed from .tools/eslint/package-lock.json into .tools/eslint/node_modules, and
// nothing is built: the browser gets these files as they are). Flat config, CommonJS.
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

// The tools live in .tools/eslint, not beside this file.
const tools = createRequire(path.join(__dirname, ".tools", "eslint", "package.json"));
const js = tools("@eslint/js");
const globals = tools("globals");

module.exports = [
  { ignores: [".tools/**", ".venv/**", "build/**", "runs/**"] },
  {
    files: ["src/tabletown/web/static/**/*.js", "src/tabletown/web/boards/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: "latest",
      // Classic scripts (<script defer>), each an IIFE in strict mode, sharing one global:
      // tabletown.js sets window.Tabletown (the API helpers and the board registry).
      sourceType: "script",
      globals: {
        ...globals.browser,
        Tabletown: "readonly",
      },
    },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      strict: ["error", "global"],
    },
  },
  {
    files: ["eslint.config.js"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
];
