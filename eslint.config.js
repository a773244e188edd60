// One lint setup for the workspace. Typed rules matter here: a dropped `release()` promise is
// the classic lock bug, so floating and misused promises are errors.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.wrangler/**",
      "**/*.generated.ts",
      "**/.tmp/**",
      "docs/api/**",
      "bench/.quick/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  // Build and config files outside any package tsconfig: linted without type information.
  {
    files: ["vitest.config.ts", "vitest.split.ts", "packages/core/scripts/**"],
    ...tseslint.configs.disableTypeChecked,
  },
);
