import { describe, expect, it } from "vitest";
import { fuzzyFilter } from "../../../src/tui/input/fuzzy.js";
import { PathList } from "../../../src/tui/input/path-list.js";
import { PathSearch, type SearchablePaths } from "../../../src/tui/input/path-search.js";

/** 100,000 synthetic paths of a monorepo, and one deep file. */
function monorepo(): SearchablePaths {
	const paths: string[] = [];
	for (let p = 0; p < 40; p++)
		for (let d = 0; d < 50; d++)
			for (let f = 0; f < 50; f++) paths.push(`packages/pkg-${p}/src/module${d}/component-${f}.${f % 3 ? "ts" : "tsx"}`);
	paths[73_123] = "packages/pkg-29/src/very/deep/nested/folder/TargetWidget.tsx";
	return PathList.of(paths);
}

/** Every path of `listing`, in order. */
const all = (listing: SearchablePaths): string[] => Array.from({ length: listing.size }, (_, i) => listing.path(i));

/** A search whose slices run only when the test says so. */
function manual(options: { sliceMs?: number; now?: () => number } = {}) {
	const queue: (() => void)[] = [];
	let updates = 0;
	const search = new PathSearch({ limit: 50, onUpdate: () => updates++, later: (run) => queue.push(run), ...options });
	return {
		search,
		updates: () => updates,
		pending: () => queue.length,
		/** Runs queued slices until none is left; how many ran. */
		drain() {
			let slices = 0;
			while (queue.length > 0) {
				(queue.shift() as () => void)();
				slices++;
			}
			return slices;
		},
	};
}

describe("PathSearch", () => {
	const listing = monorepo();

	it("at 100,000 paths finds a deep file, ranked exactly as a full sort would rank them", () => {
		const { search, drain } = manual();
		for (const query of ["targetwidget", "TgtWdg", "c", "pkg-2/mod4/comp", "zzzq"]) {
			search.find(query, listing);
			drain();
			expect(search.find(query, listing)).toEqual(fuzzyFilter(query, all(listing), 50));
		}
		search.find("targetwidget", listing);
		drain();
		expect(search.find("targetwidget", listing)[0]).toBe("packages/pkg-29/src/very/deep/nested/folder/TargetWidget.tsx");
	});

	it("does one slice on the key and the rest between keys, then tells the app", () => {
		// A clock that moves 1 ms per look: every slice stops after its budget, whatever the machine.
		let clock = 0;
		const { search, drain, updates } = manual({ sliceMs: 2, now: () => clock++ });
		const first = search.find("comp", listing);
		expect(first).toEqual([]); // nothing shown before, nothing known yet
		expect(updates()).toBe(0);
		expect(drain()).toBeGreaterThan(10);
		expect(updates()).toBe(1);
		expect(search.find("comp", listing)).toEqual(fuzzyFilter("comp", all(listing), 50));
	});

	it("a query that extends the last one filters only its matches; Backspace returns to a kept result at once", () => {
		let clock = 0;
		const { search, drain } = manual({ sliceMs: 2, now: () => clock++ });
		search.find("target", listing);
		expect(drain()).toBeGreaterThan(10); // all 100,000 paths looked at
		// "targetw" looks only at the one path "target" matched: done on the key.
		expect(search.find("targetw", listing)).toEqual(["packages/pkg-29/src/very/deep/nested/folder/TargetWidget.tsx"]);
		expect(drain()).toBe(0);
		expect(search.find("target", listing)).toEqual(fuzzyFilter("target", all(listing), 50));
		expect(drain()).toBe(0);
	});

	it("while a search runs, offers the earlier matches that still match; a newer query cancels the older search", () => {
		let clock = 0;
		const { search, drain, updates, pending } = manual({ sliceMs: 2, now: () => clock++ });
		search.find("pkg-1", listing);
		drain();
		const shown = search.find("pkg-1", listing);
		// Searches among the 11,250 matches of "pkg-1", more than a slice.
		expect(search.find("pkg-1x", listing)).toEqual([]);
		expect(pending()).toBe(1);
		const meanwhile = search.find("pkg-1/", listing);
		expect(meanwhile.length).toBeGreaterThan(0);
		expect(meanwhile.every((p) => shown.includes(p))).toBe(true);
		expect(pending()).toBeGreaterThan(0);
		const before = updates();
		drain();
		// Only the newest search completed and re-rendered.
		expect(updates()).toBe(before + 1);
		expect(search.find("pkg-1/", listing)).toEqual(fuzzyFilter("pkg-1/", all(listing), 50));
	});

	it("starts over on a new listing", () => {
		const { search, drain } = manual();
		search.find("widget", listing);
		drain();
		const other = PathList.of(["a/Widget.ts"]);
		expect(search.find("widget", other)).toEqual(["a/Widget.ts"]);
	});
});
