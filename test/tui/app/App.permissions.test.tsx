// The /permissions screen (issue 30 item 4): every rule with where it lives; d removes the highlighted
// one after a confirmation naming it, a adds one checked by the rule parser, Esc closes. Real rule
// files in temp folders: what the screen removes is gone from the file too.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RuleFiles } from "../../../src/permissions/rule-admin.js";
import { parseRule } from "../../../src/permissions/rules.js";
import { trustFilePath } from "../../../src/permissions/trust.js";
import { mountApp } from "./mount-app.js";

const ENTER = "\r";
const DOWN = "\x1b[B";
const ESC = "\x1b";

let dirs: string[] = [];
afterEach(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
	dirs = [];
});

function ruleFiles(): RuleFiles {
	const root = mkdtempSync(join(tmpdir(), "rudder-perm-screen-"));
	dirs.push(root);
	return {
		globalFile: join(root, "config", "settings.json"),
		projectFile: join(root, "project", ".rudder", "settings.json"),
		dataFolder: join(root, "data"),
		realCwd: join(root, "project"),
	};
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

async function openScreen() {
	const files = ruleFiles();
	const mounted = await mountApp({ rows: 30, columns: 100 });
	const rules = mounted.session.keepRules(files);
	rules.add("allow", "bash(npm test*)", { origin: "test" });
	rules.add("deny", "bash(git push*)", { origin: "test" });
	rules.add("allow", "read(docs/**)", { origin: "test", scope: "session" });
	await mounted.type("/permissions");
	await mounted.type(ENTER);
	return { ...mounted, files, rules };
}

/** The screen with its field for a new deny rule open. */
async function openDenyField() {
	const opened = await openScreen();
	await opened.type("a");
	await opened.type(DOWN);
	await opened.type(ENTER);
	return opened;
}

describe("the /permissions screen", () => {
	it("lists every rule with its source and file, with the keys that act on them", async () => {
		const { frame } = await openScreen();
		const shown = frame();
		expect(shown).toContain("Permission rules (3)");
		expect(shown).toMatch(/d removes; a adds; Esc cancels/);
		expect(shown).toMatch(/allow {2}bash\(npm test\*\) project \(your approvals\) · .*rudder-perm-screen-/);
		expect(shown).toMatch(/allow {2}read\(docs\/\*\*\) session \(this run only\)/);
		expect(shown).toMatch(/deny {3}bash\(git push\*\) global · .*settings\.json/);
	});

	it("removes the highlighted rule after a confirmation naming it, from the file and from the rules in force", async () => {
		const { frame, type, files, rules } = await openScreen();
		// allow npm test, allow read(docs), deny git push: the third row.
		await type(DOWN);
		await type(DOWN);
		await type("d");
		expect(frame()).toMatch(/Remove deny rule "bash\(git push\*\)" from global ·/);
		// The cursor starts on "No": Enter right away keeps the rule.
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual(["bash(git push*)"]);
		expect(frame()).toContain("Permission rules (3)");
		await type(DOWN);
		await type(DOWN);
		await type("d");
		await type(DOWN);
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual([]);
		expect(rules.list().map((e) => e.text)).toEqual(["bash(npm test*)", "read(docs/**)"]);
		expect(frame()).toContain("Removed deny bash(git push*) (global · ");
		expect(frame()).toContain("Permission rules (2)");
		// The project approval goes from its file too.
		await type("d");
		await type(DOWN);
		await type(ENTER);
		expect(JSON.stringify(readJson(trustFilePath(files.dataFolder)))).not.toContain("npm test");
		await type(ESC);
		expect(frame()).not.toContain("Permission rules");
	});

	it("adds a rule typed in a field: a malformed one is refused in one line, a good one is saved and highlighted", async () => {
		const { frame, type, files, rules } = await openScreen();
		await type("a");
		expect(frame()).toContain("Add a rule");
		await type(DOWN);
		await type(ENTER);
		expect(frame()).toContain("New deny rule");
		await type("bash(");
		await type(ENTER);
		expect(frame()).toContain('permission rule "bash(" must be a tool name or');
		expect(rules.list()).toHaveLength(3);
		await type("a");
		await type(DOWN);
		await type(ENTER);
		await type("bash(rm -rf*)");
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual(["bash(git push*)", "bash(rm -rf*)"]);
		expect(frame()).toContain("Permission rules (4)");
		expect(frame()).toMatch(/Added deny bash\(rm -rf\*\)/);
	});

	it("draws a hostile rule text sanitised and on one line", async () => {
		const files = ruleFiles();
		const { frame, type, session } = await mountApp({ rows: 30, columns: 100 });
		// As a cloned repository's .rudder/settings.json brings it (a rule typed by hand is refused with a line break).
		const hostile = { ...parseRule("bash(x\x1b]0;owned\x07\nfake row)", files.projectFile), scope: "session" as const };
		session.keepRules(files, { allow: [hostile], deny: [] });
		await type("/permissions");
		await type(ENTER);
		const shown = frame();
		expect(shown).not.toContain("\x1b]0;");
		expect(shown).not.toContain("\x07");
		expect(shown).toMatch(/allow {2}bash\(x.*⏎fake row\) session/);
		await type("d");
		expect(frame()).not.toContain("\x1b]0;");
		expect(frame()).toMatch(/Remove allow rule "bash\(x.*⏎fake row\)" from session \(this run only\)\?/);
	});
	it("a rule pasted into the field is kept, and what is typed after it goes after it (the cursor ends after the paste)", async () => {
		const { type, files, frame } = await openDenyField();
		await type("\x1b[200~bash(make clean\x1b[201~");
		await type("*)");
		expect(frame()).toContain("› bash(make clean*)");
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual(["bash(git push*)", "bash(make clean*)"]);
	});

	it("refuses a paste holding a line break with a one-line message, keeping what the field held (a rule is one line)", async () => {
		const { type, files, frame, rules } = await openDenyField();
		await type("bash(make");
		await type("\x1b[200~ clean\nrm -rf ~\x1b[201~");
		expect(frame()).toContain("› bash(make");
		expect(frame()).not.toContain("rm -rf");
		expect(frame()).toMatch(/Paste not added: it holds a line break, and this field takes one line/);
		// Typing goes on where the field was; the message goes with the next edit.
		await type(" clean*)");
		expect(frame()).toContain("› bash(make clean*)");
		expect(frame()).not.toContain("Paste not added");
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual(["bash(git push*)", "bash(make clean*)"]);
		expect(rules.list()).toHaveLength(4);
	});

	it("a pasted line ending in its line break (copied whole from a terminal or a file) is added without the break", async () => {
		const { type, files, frame } = await openDenyField();
		await type("\x1b[200~bash(make clean*)\r\n\x1b[201~");
		expect(frame()).toContain("› bash(make clean*)");
		expect(frame()).not.toContain("Paste not added");
		await type(ENTER);
		expect(readJson(files.globalFile).permissions.deny).toEqual(["bash(git push*)", "bash(make clean*)"]);
	});

	it("names the typed rule, not a file, when a rule typed in the field is malformed", async () => {
		const { type, frame } = await openScreen();
		await type("a");
		await type(ENTER);
		await type("bash(");
		await type(ENTER);
		expect(frame()).toContain('the rule you typed: permission rule "bash(" must be a tool name');
		expect(frame()).not.toContain("project-permissions.json:");
	});
});
