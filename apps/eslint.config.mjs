// eslint over the apps' sources where they are (apps/<name>/web, _platform, _ui, _site), not the assembled site.
// Run by tests/apps/test_typescript.py through `python -m builder.webcheck --eslint`, which also sets
// PERSONA_TSCONFIG: the type-check tsconfig that mirrors the site assembly's aliases (builder/webcheck.py). The
// typed rules (promises) need it; without it (an editor, a bare `npx eslint`) only the untyped rules run.
//
// Rules that find bugs, not taste: eslint's and typescript-eslint's recommended sets, the rules of hooks, Next's.
// Left off, each with its reason:
//   no-control-regex              the apps reject control characters in input on purpose (/[\x00-\x1f]/)
//   no-useless-assignment         flags `let x = ""` before branches that all assign and a last `pos++`: no bug
//   @next/next/no-img-element     images are served unoptimized (next.config.mjs); <img> is the apps' choice
//   @next/next/no-html-link-for-pages   reads a pages/ router; the apps use the App Router (it cannot see routes)
//   react-hooks compiler rules (purity, refs, immutability, ...)   React Compiler diagnostics, not bugs of
//                                 uncompiled code; they cost ~20 s and flagged one server component's local
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const TS = ["*/web/**/*.{ts,tsx}", "_platform/src/**/*.ts", "_ui/src/**/*.{ts,tsx}", "_site/src/**/*.ts"];
const project = process.env.PERSONA_TSCONFIG;

export default defineConfig(
  // Assembly output (builds run on a copy of apps/, but an old tree may still hold these).
  { ignores: ["**/node_modules/**", "**/.next/**", "_site/src/app/**", "_site/src/apps/**", "_site/src/generated/**"] },
  {
    files: TS,
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "no-control-regex": "off",
      "no-useless-assignment": "off",
      "@next/next/no-img-element": "off",
      "@next/next/no-html-link-for-pages": "off",
    },
  },
  project
    ? {
        files: TS,
        languageOptions: { parserOptions: { project, tsconfigRootDir: import.meta.dirname } },
        rules: {
          // A payment, a transfer or a write not awaited races the next one (apps/README.md "Forms and routes").
          "@typescript-eslint/no-floating-promises": "error",
          "@typescript-eslint/await-thenable": "error",
          // A promise where a value is meant (`if (promise)`, a spread); an async handler passed where a void
          // callback is expected (onSubmit, setInterval) is the apps' idiom, each catching its own errors.
          "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
        },
      }
    : {},
  // Node scripts and the e2e tests (node:test + playwright-core; page.evaluate bodies run in the browser).
  {
    files: ["**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
