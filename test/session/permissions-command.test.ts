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
		expect(shown).toMatch(/Allow:\n {2}bash\(npm test\*\) {2}\(--allow\)\nDeny:\n {2}read\(\.env\) {2}\(--deny\)/);
		await session.submit("/permissions plan");
		expect(session.getState().permissionMode).toBe("plan");
		expect(fx.notices().at(-1)).toBe("Permission mode: plan");
		await session.submit("/permissions careful");
		expect(fx.notices().at(-1)).toBe('Unknown permission mode "careful" (one of ask, auto-edit, auto, plan, yolo)');
		expect(session.getState().permissionMode).toBe("plan");
	});
});
