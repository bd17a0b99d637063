// Trust: a project's settings narrow at once and widen only once the folder is trusted; the trust
// answer is remembered per real path in the user's data folder.
import { mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolvePermissions, type SettingsLayer } from "../../src/permissions/resolve.js";
import { folderTrust, rememberTrust, trustFilePath } from "../../src/permissions/trust.js";
import { realTarget } from "../../src/permissions/workspace.js";

const global = (section: Omit<SettingsLayer, "file"> = {}): SettingsLayer => ({ file: "/home/u/.config/rudder/settings.json", ...section });
const project = (section: Omit<SettingsLayer, "file"> = {}): SettingsLayer => ({ file: "/repo/.rudder/settings.json", ...section });
const resolve = (g: SettingsLayer, p: SettingsLayer, trusted: boolean, flags = {}) =>
	resolvePermissions({ cwd: tmpdir(), global: g, project: p, flags, trusted });

describe("resolvePermissions", () => {
	it("defaults to ask with no rules and no network", () => {
		const r = resolve(global(), project(), false);
		expect(r.policy.mode).toBe("ask");
		expect(r.policy.allow).toEqual([]);
		expect(r.network).toBe(false);
		expect(r.notices).toEqual([]);
	});

	it("an untrusted project narrows (deny rules, a stricter mode) but does not widen, with one notice naming file and entries", () => {
		const p = project({ permissions: { mode: "yolo", allow: ["bash(curl*)"], deny: ["read(.env)"] }, sandbox: { network: true } });
		const r = resolve(global(), p, false);
		expect(r.policy.mode).toBe("ask");
		expect(r.policy.allow).toEqual([]);
		expect(r.policy.deny.map((d) => d.text)).toEqual(["read(.env)"]);
		expect(r.network).toBe(false);
		expect(r.notices).toEqual([
			'Ignored permissions.mode "yolo", permissions.allow "bash(curl*)", sandbox.network true in /repo/.rudder/settings.json: this folder is not trusted to widen permissions (start rudder with --trust-project to trust it)',
		]);
		expect(resolve(global({ permissions: { mode: "auto-edit" } }), project({ permissions: { mode: "plan" } }), false).policy.mode).toBe(
			"plan",
		);
		expect(resolve(global({ sandbox: { network: true } }), project({ sandbox: { network: false } }), false).network).toBe(false);
	});

	it("a trusted project widens", () => {
		const p = project({ permissions: { mode: "auto-edit", allow: ["bash(npm test*)"] }, sandbox: { network: true } });
		const r = resolve(global(), p, true);
		expect(r.policy.mode).toBe("auto-edit");
		expect(r.policy.allow.map((a) => [a.text, a.source])).toEqual([["bash(npm test*)", "/repo/.rudder/settings.json"]]);
		expect(r.network).toBe(true);
		expect(r.notices).toEqual([]);
	});

	it("the user's own settings and flags always apply; the mode flag wins", () => {
		const r = resolve(
			global({ permissions: { mode: "auto-edit", allow: ["bash(ls)"] } }),
			project({ permissions: { mode: "plan" } }),
			false,
			{
				mode: "yolo",
				allow: ["bash(npm test*)"],
				deny: ["bash(rm*)"],
			},
		);
		expect(r.policy.mode).toBe("yolo");
		expect(r.yoloChosen).toBe(true);
		expect(r.policy.allow.map((a) => `${a.text} ${a.source}`)).toEqual([
			"bash(ls) /home/u/.config/rudder/settings.json",
			"bash(npm test*) --allow",
		]);
		expect(r.policy.deny.map((a) => a.source)).toEqual(["--deny"]);
	});

	it("only widening entries count as widenings", () => {
		expect(resolve(global(), project({ permissions: { mode: "plan", deny: ["bash"] } }), false).widenings).toEqual([]);
	});
});

describe("trust store", () => {
	let data: string;
	afterEach(() => rmSync(data, { recursive: true, force: true }));

	it("remembers yes and no per real path in a 0600 file; unknown folders are undefined", () => {
		data = mkdtempSync(join(tmpdir(), "rudder-trust-"));
		symlinkSync(data, join(data, "link"));
		expect(folderTrust(data, realTarget(data))).toBeUndefined();
		rememberTrust(data, realTarget(join(data, "link")), true);
		expect(folderTrust(data, realTarget(data))).toBe(true);
		rememberTrust(data, realTarget(data), false);
		expect(folderTrust(data, realTarget(data))).toBe(false);
		expect(statSync(trustFilePath(data)).mode & 0o777).toBe(0o600);
	});
});

describe("sandbox limits", () => {
	it("are the defaults, the user's over them, and a project's only where lower", async () => {
		const { sandboxLimits } = await import("../../src/permissions/resolve.js");
		const { DEFAULT_SANDBOX_LIMITS } = await import("../../src/tools/sandbox-limits.js");
		expect(sandboxLimits(undefined, undefined)).toEqual(DEFAULT_SANDBOX_LIMITS);
		expect(sandboxLimits({ memoryMiB: 8192 }, { memoryMiB: 16384, processes: 100 })).toEqual({
			...DEFAULT_SANDBOX_LIMITS,
			memoryMiB: 8192,
			processes: 100,
		});
	});
	it("are checked in the settings file: a typo or a bad value names the field", async () => {
		const { sandboxChecks } = await import("../../src/permissions/settings-section.js");
		expect(sandboxChecks.limits({ memoryMiB: 512 })).toBeUndefined();
		expect(sandboxChecks.limits({ memory: 512 })).toMatch(/has "memory", which is not a limit \(known: processes, memoryMiB/);
		expect(sandboxChecks.limits({ processes: 0 })).toMatch(/has processes 0, which must be a whole number of at least 1/);
		expect(sandboxChecks.limits(5)).toMatch(/must be an object/);
	});
});
