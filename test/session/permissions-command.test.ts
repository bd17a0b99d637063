// `/permissions`: shows the mode, the sandbox, the workspace and the rules; `/permissions <mode>` switches.
import { afterEach, describe, expect, it } from "vitest";
import { loadPermissionSetup } from "../../src/session/session-permissions.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

describe("/permissions", () => {
	it("lists mode, sandbox, workspace and rules with their sources, and switches mode", async () => {
		fx = await createFixture();
		const session = await fx.open({
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, flags: { allow: ["bash(npm test*)"], deny: ["read(.env)"] } }),
			sandboxFactory: () => undefined,
		});
		await session.submit("/permissions");
		const shown = fx.notices().at(-1) ?? "";
		expect(shown).toContain("Permission mode: ask");
		expect(shown).toContain("Sandbox for bash: none available");
		expect(shown).toContain(`Workspace: ${fx.cwd}`);
		expect(shown).toMatch(/Allow:\n {2}bash\(npm test\*\) {2}\(flag: --allow\)\nDeny:\n {2}read\(\.env\) {2}\(flag: --deny\)/);
		await session.submit("/permissions plan");
		expect(session.getState().permissionMode).toBe("plan");
		expect(fx.notices().at(-1)).toBe("Permission mode: plan");
		await session.submit("/permissions careful");
		expect(fx.notices().at(-1)).toBe('Unknown permission mode "careful" (one of ask, auto-edit, auto, plan, yolo)');
		expect(session.getState().permissionMode).toBe("plan");
	});

	it("adds and removes rules: allow to your approvals for the folder, deny to your settings; a bad one is one line", async () => {
		fx = await createFixture();
		const session = await fx.open({ sandboxFactory: () => undefined, permissionMode: "ask" });
		await session.submit("/permissions allow bash(npm test*)");
		expect(fx.notices().at(-1)).toMatch(/^Added allow bash\(npm test\*\) \(project, .*project-permissions\.json\)$/);
		await session.submit("/permissions deny bash(git push*)");
		expect(fx.notices().at(-1)).toMatch(/^Added deny bash\(git push\*\) \(global, .*settings\.json\)$/);
		await session.submit("/permissions");
		expect(fx.notices().at(-1)).toMatch(/Allow:\n {2}bash\(npm test\*\) {2}\(project: .*\)\nDeny:\n {2}bash\(git push\*\) {2}\(global: /);
		await session.submit("/permissions remove bash(npm test*)");
		expect(fx.notices().at(-1)).toBe("Removed allow bash(npm test*) (project)");
		expect(
			session
				.permissionRules()
				.list()
				.map((e) => e.text),
		).toEqual(["bash(git push*)"]);
		await session.submit("/permissions remove bash(npm test*)");
		expect(fx.notices().at(-1)).toBe('no rule "bash(npm test*)"');
		await session.submit("/permissions allow bash(");
		expect(fx.notices().at(-1)).toMatch(/^\/permissions allow: permission rule "bash\(" must be a tool name or tool\(pattern\)/);
		expect(fx.notices().at(-1)).not.toContain("project-permissions.json");
	});

	it("asks the app for its rules screen when the caller can show one, after the mode, sandbox and workspace", async () => {
		fx = await createFixture();
		const session = await fx.open({ sandboxFactory: () => undefined, permissionMode: "ask" });
		expect(await session.submit("/permissions", { ui: true })).toEqual({ kind: "command", name: "permissions", ui: "permissions" });
		const shown = fx.notices().at(-1) ?? "";
		expect(shown).toContain("Permission mode: ask");
		expect(shown).toContain(`Workspace: ${fx.cwd}`);
		expect(shown).not.toContain("Allow:");
	});
});
