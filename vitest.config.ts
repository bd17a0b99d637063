// Two projects: every test on the packages as installed, and the App's and the Ink folder's tests
// again on Ink with the bundle's patches applied (src/tui/ink/README.md), so a patch that changes
// behaviour fails a test, not only a text anchor that stops matching.
import { defineConfig } from "vitest/config";
import { patchedInk } from "./test/helpers/patched-ink.js";

export default defineConfig({
	test: {
		// Generous: a shared 2-core machine running several suites at once must not fail a test by the clock.
		testTimeout: 30_000,
		projects: [
			{ extends: true, test: { name: "unit", include: ["test/**/*.test.{ts,tsx}"], exclude: ["test/tui/ink/patched/**"] } },
			{
				extends: true,
				plugins: [patchedInk()],
				test: {
					name: "patched-ink",
					include: ["test/tui/app/App*.test.tsx", "test/tui/ink/patched/**/*.test.{ts,tsx}"],
					// Ink and every package that imports it (ink-testing-library, ink-text-input) go through Vite,
					// so the plugin sees Ink's files and there is one Ink instance, not a patched and a plain one.
					server: { deps: { inline: [/[\\/]node_modules[\\/]ink(?:-[\w-]+)?[\\/]/] } },
				},
			},
		],
	},
});
