// Runs in the "patched-ink" project only (vitest.config.ts). <Static>'s output is drawn once; with the
// shared caches it left every row it drew in them (a resumed history: hundreds of rows, a styled cell
// object per column, ~1 MiB kept after a 100-message resume).
import { Static, Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { cachedRowCount } from "../../../../src/tui/ink/row-cached-output.js";

const OUTPUT = "../../../../node_modules/ink/build/output.js";

describe("<Static>'s output, patched", () => {
	it("has caches of its own, while the live frames share theirs", async () => {
		const Output = (await import(/* @vite-ignore */ OUTPUT)).default;
		const live = [new Output({ width: 10, height: 2 }), new Output({ width: 10, height: 2 })];
		const once = new Output({ width: 10, height: 2, once: true });
		expect(live[0].caches).toBe(live[1].caches);
		expect(once.caches).not.toBe(live[0].caches);
	});

	it("leaves none of its rows in the row cache (Ink's renderer marks it), and draws them", () => {
		const rows = Array.from({ length: 300 }, (_, i) => `\x1b[1mrow ${i}\x1b[22m of the history`);
		const before = cachedRowCount();
		const app = render(<Static items={[rows.join("\n")]}>{(text) => <Text key="batch">{text}</Text>}</Static>);
		expect(cachedRowCount() - before).toBeLessThan(10);
		expect(app.frames.join("")).toContain("\x1b[1mrow 299\x1b[22m of the history");
		app.unmount();
	});
});
