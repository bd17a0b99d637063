import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../src/config/problems.js";
import { defaultSettings, loadSettings, loadSettingsChecked } from "../../src/session/settings.js";

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
		const s = loadSettings({ cwd, env: env() });
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
