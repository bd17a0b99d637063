import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../../src/config/problems.js";
import { checkHooksSetting, hookSources, loadHooks, parseHooks } from "../../../src/extensions/hooks/config.js";
import { readSettingsChecked } from "../../../src/session/settings.js";
import { putFile } from "../../helpers/put-file.js";
import { commandHook, type HookProject, hookProject } from "./hook-project.js";

let p: HookProject;
afterEach(() => p?.cleanup());

describe("hook configuration", () => {
	it("reads all five files, keeps every hook with its file and whether it is the project's", () => {
		p = hookProject();
		const files = {
			rudderGlobal: join(p.env.RUDDER_HOME, "settings.json"),
			claudeGlobal: join(p.home, ".claude", "settings.json"),
			rudderProject: join(p.cwd, ".rudder", "settings.json"),
			claudeProject: join(p.cwd, ".claude", "settings.json"),
			claudeLocal: join(p.cwd, ".claude", "settings.local.json"),
		};
		for (const [name, file] of Object.entries(files)) {
			p.settings(file, { PreToolUse: [{ matcher: "Bash", hooks: [commandHook(`echo ${name}`)] }] });
		}
		const { hooks, problems } = loadHooks({ cwd: p.cwd, env: p.env });
		expect(problems).toEqual([]);
		expect(hooks.map((h) => [h.command, h.file, h.project])).toEqual([
			["echo rudderGlobal", files.rudderGlobal, false],
			["echo claudeGlobal", files.claudeGlobal, false],
			["echo rudderProject", files.rudderProject, true],
			["echo claudeProject", files.claudeProject, true],
			["echo claudeLocal", files.claudeLocal, true],
		]);
		expect(hooks[0]).toMatchObject({ event: "PreToolUse", matcher: "Bash", timeoutSeconds: 60 });
	});

	it("started in the home folder, ~/.claude/settings.json is read once, as the user's own", () => {
		p = hookProject();
		const sources = hookSources(p.home, p.env);
		const claude = sources.filter((s) => s.file === join(p.home, ".claude", "settings.json"));
		expect(claude).toEqual([{ file: join(p.home, ".claude", "settings.json"), project: false }]);
	});

	it("a bad entry is one line naming the file and the field; the rest of the file loads", () => {
		const file = "/p/.claude/settings.json";
		const { hooks, problems } = parseHooks(
			{
				PreToolUse: [
					{ matcher: "Bash", hooks: [commandHook("ok-1"), { type: "prompt", prompt: "x" }, commandHook("ok-2", 5)] },
					{ matcher: "(", hooks: [commandHook("never")] },
					{ matcher: 3, hooks: [] },
					"nope",
				],
				PostToolUse: [{ hooks: [{ type: "command", command: "" }, { type: "command", command: "x", timeout: -1 }, commandHook("ok-3")] }],
				Stop: { hooks: [] },
				PreToolUse2: [],
				constructor: [],
				// As JSON.parse makes it: an own property named __proto__, not the prototype.
				...JSON.parse('{"__proto__": []}'),
			},
			{ file, project: true },
		);
		expect(hooks.map((h) => [h.event, h.command, h.timeoutSeconds])).toEqual([
			["PreToolUse", "ok-1", 60],
			["PreToolUse", "ok-2", 5],
			["PostToolUse", "ok-3", 60],
		]);
		expect(problems.map(formatConfigProblem)).toEqual([
			`${file}: hooks.PreToolUse[0].hooks[1].type: "prompt" hooks are not supported; only "command"`,
			expect.stringMatching(/^\/p\/\.claude\/settings\.json: hooks\.PreToolUse\[1\]\.matcher: is not a valid regular expression/),
			`${file}: hooks.PreToolUse[2].matcher: must be a string`,
			`${file}: hooks.PreToolUse[3]: must be an object {"matcher": ..., "hooks": [...]}`,
			`${file}: hooks.PostToolUse[0].hooks[0].command: must be a non-empty string`,
			`${file}: hooks.PostToolUse[0].hooks[1].timeout: must be a positive number of seconds`,
			`${file}: hooks.Stop: must be a list of {"matcher": ..., "hooks": [...]}`,
			expect.stringContaining(`${file}: hooks.PreToolUse2: is not a hook event (did you mean PreToolUse?)`),
			expect.stringContaining(`${file}: hooks.constructor: is not a hook event`),
			expect.stringContaining(`${file}: hooks.__proto__: is not a hook event`),
		]);
		for (const problem of problems) expect(formatConfigProblem(problem)).not.toContain("\n");
	});

	it("a file that is not JSON is one problem; the other files' hooks still load", () => {
		p = hookProject();
		putFile(join(p.cwd, ".claude", "settings.json"), "{ not json");
		p.settings(join(p.cwd, ".claude", "settings.local.json"), { Stop: [{ hooks: [commandHook("echo fine")] }] });
		const { hooks, problems } = loadHooks({ cwd: p.cwd, env: p.env });
		expect(hooks.map((h) => h.command)).toEqual(["echo fine"]);
		expect(problems).toHaveLength(1);
		expect(formatConfigProblem(problems[0])).toMatch(/\.claude\/settings\.json: invalid JSON: .*\(its hooks were not loaded\)$/);
	});

	it("`hooks` is a known setting of Rudder's settings files; its entries' problems are the hooks loader's, said once", () => {
		p = hookProject();
		const file = join(p.cwd, ".rudder", "settings.json");
		p.settings(file, { PreToolUse: [{ matcher: "Bash", hooks: [commandHook("echo ok")] }] });
		expect(readSettingsChecked(file).problems).toEqual([]);
		putFile(file, JSON.stringify({ hooks: { Nope: [] } }));
		expect(readSettingsChecked(file).problems).toEqual([]);
		expect(loadHooks({ cwd: p.cwd, env: p.env }).problems.map(formatConfigProblem)).toEqual([
			expect.stringContaining(`${file}: hooks.Nope: is not a hook event`),
		]);
		putFile(file, JSON.stringify({ hooks: [] }));
		expect(readSettingsChecked(file).problems.map(formatConfigProblem)).toEqual([`${file}: hooks: ${checkHooksSetting([])}`]);
		expect(checkHooksSetting([])).toMatch(/must be an object of events/);
	});
});
