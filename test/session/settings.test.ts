import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../src/config/problems.js";
import { defaultSettings, loadSettings, loadSettingsChecked } from "../../src/session/settings.js";
import { heldSettingsNotice } from "../../src/session/settings-trust.js";

let root: string;
let home: string;
let cwd: string;
const env = () => ({ RUDDER_HOME: home });
const writeGlobal = (text: string) => writeFileSync(join(home, "settings.json"), text);
const writeProject = (text: string) => {
	mkdirSync(join(cwd, ".rudder"), { recursive: true });
	writeFileSync(join(cwd, ".rudder", "settings.json"), text);
};

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-settings-"));
	home = join(root, "home");
	cwd = join(root, "project");
	mkdirSync(home, { recursive: true });
	mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("loadSettings", () => {
	it("gives the defaults when no file exists", () => {
		expect(loadSettings({ cwd, env: env() })).toEqual(defaultSettings);
	});

	it("lets the project override the global file field by field, sections included", () => {
		writeGlobal(
			JSON.stringify({
				defaultModel: "anthropic/claude-x",
				steeringMode: "all",
				compaction: { reserveTokens: 1000, keepRecentTokens: 500 },
			}),
		);
		writeProject(JSON.stringify({ defaultModel: "openai/gpt-x", compaction: { keepRecentTokens: 42 }, retry: { enabled: false } }));
		const s = loadSettings({ cwd, env: env(), trusted: true });
		expect(s.defaultModel).toBe("openai/gpt-x");
		expect(s.steeringMode).toBe("all");
		expect(s.compaction).toEqual({ enabled: true, reserveTokens: 1000, keepRecentTokens: 42 });
		expect(s.retry).toEqual({ enabled: false, maxRetries: 3 });
		expect(s.tools).toEqual({ maxProcesses: 8, maxSubagents: 4 });
	});

	it("does not let one load change the defaults of the next", () => {
		writeProject(JSON.stringify({ compaction: { keepRecentTokens: 1 } }));
		loadSettings({ cwd, env: env() });
		expect(defaultSettings.compaction.keepRecentTokens).toBe(20_000);
	});

	it("reports invalid JSON with the file name on one line", () => {
		writeGlobal("{ nope");
		expect(() => loadSettings({ cwd, env: env() })).toThrow(/^Invalid JSON in .*home\/settings\.json: /);
		try {
			loadSettings({ cwd, env: env() });
		} catch (error) {
			expect((error as Error).message).not.toContain("\n");
		}
	});

	it.each([
		[{ defaultThinkingLevel: "huge" }, /"defaultThinkingLevel" must be one of "off"/],
		[{ defaultModel: "no-slash" }, /"defaultModel" must be "provider\/model-id"/],
		[{ compaction: { reserveTokens: -1 } }, /"compaction.reserveTokens" must be a non-negative integer/],
		[{ compaction: { keepRecent: 5 } }, /"compaction.keepRecent" is not a known setting/],
		[{ tools: { maxProcesses: 0 } }, /"tools.maxProcesses" must be a positive integer/],
		[{ retry: "yes" }, /"retry" must be an object/],
		[{ followUpMode: "some" }, /"followUpMode" must be one of/],
		[{ theme: "dark" }, /"theme" is not a known setting/],
		[[1, 2], /"\(root\)" must be a JSON object/],
	])("rejects %j naming the project file and the field", (data, pattern) => {
		writeProject(JSON.stringify(data));
		expect(() => loadSettings({ cwd, env: env() })).toThrow(pattern);
		expect(() => loadSettings({ cwd, env: env() })).toThrow(/project\/\.rudder\/settings\.json/);
	});
});

describe("loadSettingsChecked", () => {
	it("lists every problem of both files with file and field, drops only the bad fields and never throws", () => {
		writeGlobal(JSON.stringify({ steeringMode: "sometimes", compaction: { enabled: "yes", reserveTokens: 100 }, typo: 1 }));
		writeProject("{ not json");
		const { settings, problems } = loadSettingsChecked({ cwd, env: env() });
		expect(problems.map(formatConfigProblem)).toEqual([
			`${join(home, "settings.json")}: steeringMode: must be one of "one-at-a-time", "all"`,
			`${join(home, "settings.json")}: compaction.enabled: must be true or false`,
			`${join(home, "settings.json")}: typo: is not a known setting`,
			expect.stringMatching(new RegExp(`^${join(cwd, ".rudder", "settings.json")}: invalid JSON: `)),
		]);
		expect(settings.steeringMode).toBe(defaultSettings.steeringMode);
		expect(settings.compaction).toEqual({ ...defaultSettings.compaction, reserveTokens: 100 });
	});

	it("notifications: off by default; afterSeconds and method merge across files; a bad method names the field", () => {
		expect(loadSettingsChecked({ cwd, env: env() }).settings.notifications).toBeUndefined();
		writeGlobal(JSON.stringify({ notifications: { afterSeconds: 30 } }));
		writeProject(JSON.stringify({ notifications: { method: "osc777" } }));
		expect(loadSettingsChecked({ cwd, env: env() }).settings.notifications).toEqual({ afterSeconds: 30, method: "osc777" });
		writeProject(JSON.stringify({ notifications: { method: "toast", afterSeconds: -1 } }));
		const { settings, problems } = loadSettingsChecked({ cwd, env: env() });
		expect(problems.map(formatConfigProblem)).toEqual([
			`${join(cwd, ".rudder", "settings.json")}: notifications.method: must be one of "osc9", "osc777", "bell"`,
			`${join(cwd, ".rudder", "settings.json")}: notifications.afterSeconds: must be a non-negative integer`,
		]);
		expect(settings.notifications).toEqual({ afterSeconds: 30 });
	});

	it("shell.passEnv is read from the global settings only: a project cannot hand keys to the model's commands", () => {
		writeGlobal(JSON.stringify({ shell: { passEnv: ["GITHUB_TOKEN"] } }));
		writeProject(JSON.stringify({ shell: { passEnv: ["OPENAI_API_KEY"] } }));
		const { settings, problems } = loadSettingsChecked({ cwd, env: env() });
		expect(settings.shell.passEnv).toEqual(["GITHUB_TOKEN"]);
		expect(problems.map(formatConfigProblem)).toEqual([
			expect.stringMatching(/\.rudder\/settings\.json: shell: is read from the global settings only/),
		]);
		expect(loadSettings({ cwd, env: env() }).shell.passEnv).toEqual(["GITHUB_TOKEN"]);
	});
});

describe("crafted settings files (issue 30: a project file stopped every mode at start)", () => {
	const PROTOTYPE_KEYS = ["valueOf", "hasOwnProperty", "toLocaleString", "toString", "constructor", "__proto__", "isPrototypeOf"];

	it.each(PROTOTYPE_KEYS)("%s at the top level and nested in every section is one line naming file and field; the rest loads", (key) => {
		const sections = ["compaction", "retry", "tools", "notifications", "shell", "permissions", "sandbox"];
		// JSON text, not an object literal: `__proto__` must arrive as an own key, as JSON.parse gives it.
		const nested = sections.map((section) => `"${section}": {"${key}": 1}`).join(", ");
		writeProject(`{"${key}": 1, ${nested}, "steeringMode": "all", "compaction2": 1}`);
		writeGlobal(`{"${key}": {"${key}": 1}, "followUpMode": "all"}`);
		const { settings, problems } = loadSettingsChecked({ cwd, env: env() });
		const project = join(cwd, ".rudder", "settings.json");
		expect(problems.map(formatConfigProblem)).toEqual([
			`${join(home, "settings.json")}: ${key}: is not a known setting`,
			`${project}: ${key}: is not a known setting`,
			...sections.map((section) => `${project}: ${section}.${key}: is not a known setting`),
			`${project}: compaction2: is not a known setting`,
			`${project}: shell: is read from the global settings only (it can pass keys to commands)`,
		]);
		expect(settings.steeringMode).toBe("all");
		expect(settings.followUpMode).toBe("all");
		expect(settings.compaction).toEqual(defaultSettings.compaction);
		expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
		expect(Object.hasOwn(settings, key)).toBe(false);
	});
});

describe("project settings that change the model, costs or safety wait for trust", () => {
	const project = () => join(cwd, ".rudder", "settings.json");

	it("an untrusted project cannot change the model, the thinking level, turn checkpoints off or raise limits; the rest applies", () => {
		writeGlobal(JSON.stringify({ defaultModel: "anthropic/claude-x", compaction: { enabled: false } }));
		writeProject(
			JSON.stringify({
				defaultModel: "openai/gpt-x",
				defaultThinkingLevel: "high",
				checkpoints: false,
				compaction: { enabled: true, keepRecentTokens: 42 },
				retry: { maxRetries: 50 },
				tools: { maxProcesses: 64 },
				steeringMode: "all",
			}),
		);
		const { settings, problems, held } = loadSettingsChecked({ cwd, env: env() });
		expect(problems).toEqual([]);
		expect(settings.defaultModel).toBe("anthropic/claude-x");
		expect(settings.defaultThinkingLevel).toBeUndefined();
		expect(settings.checkpoints).toBeUndefined();
		expect(settings.compaction).toEqual({ enabled: false, reserveTokens: 16_384, keepRecentTokens: 42 });
		expect(settings.retry.maxRetries).toBe(3);
		expect(settings.tools.maxProcesses).toBe(8);
		expect(settings.steeringMode).toBe("all");
		expect(held.map((h) => h.entry)).toEqual([
			'defaultModel "openai/gpt-x"',
			'defaultThinkingLevel "high"',
			"checkpoints false",
			"compaction.enabled true",
			"retry.maxRetries 50",
			"tools.maxProcesses 64",
		]);
		expect(heldSettingsNotice(held)).toBe(
			`Ignored defaultModel "openai/gpt-x", defaultThinkingLevel "high", checkpoints false, compaction.enabled true, retry.maxRetries 50, tools.maxProcesses 64 in ${project()}: this folder is not trusted to change the model, costs or safety settings (start rudder with --trust-project to trust it)`,
		);
		expect(loadSettings({ cwd, env: env() }).defaultModel).toBe("anthropic/claude-x");
	});

	it("webSearch.searxngUrl: an http(s) URL; an untrusted project cannot send the model's queries to its own server", () => {
		writeGlobal(JSON.stringify({ webSearch: { searxngUrl: "https://searx.example/search" } }));
		writeProject(JSON.stringify({ webSearch: { searxngUrl: "https://attacker.example/search" } }));
		const untrusted = loadSettingsChecked({ cwd, env: env() });
		expect(untrusted.settings.webSearch).toEqual({ searxngUrl: "https://searx.example/search" });
		expect(untrusted.held.map((h) => h.entry)).toEqual(['webSearch.searxngUrl "https://attacker.example/search"']);
		expect(loadSettingsChecked({ cwd, env: env(), trusted: true }).settings.webSearch?.searxngUrl).toBe("https://attacker.example/search");
		writeGlobal(JSON.stringify({ webSearch: { searxngUrl: "file:///etc/passwd" } }));
		const bad = loadSettingsChecked({ cwd: root, env: env() });
		expect(bad.problems.map(formatConfigProblem)).toEqual([
			`${join(home, "settings.json")}: webSearch.searxngUrl: must be an http:// or https:// URL`,
		]);
	});

	it("narrowing entries and entries equal to the user's own apply untrusted; a trusted project applies whole", () => {
		writeGlobal(JSON.stringify({ defaultModel: "openai/gpt-x" }));
		writeProject(JSON.stringify({ defaultModel: "openai/gpt-x", checkpoints: true, retry: { maxRetries: 1 }, tools: { maxProcesses: 2 } }));
		const untrusted = loadSettingsChecked({ cwd, env: env() });
		expect(untrusted.held).toEqual([]);
		expect(heldSettingsNotice(untrusted.held)).toBeUndefined();
		expect(untrusted.settings).toMatchObject({ checkpoints: true, retry: { maxRetries: 1 }, tools: { maxProcesses: 2 } });
		writeProject(JSON.stringify({ defaultModel: "local/evil", checkpoints: false }));
		const trusted = loadSettingsChecked({ cwd, env: env(), trusted: true });
		expect(trusted.held).toEqual([]);
		expect(trusted.settings).toMatchObject({ defaultModel: "local/evil", checkpoints: false });
	});
});
