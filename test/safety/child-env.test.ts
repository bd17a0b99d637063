import { describe, expect, it } from "vitest";
import { childEnv } from "../../src/safety/child-env.js";

describe("childEnv", () => {
	const env = {
		PATH: "/usr/bin",
		HOME: "/home/a",
		OPENAI_API_KEY: "sk-1",
		GROQ_API_KEY: "gsk-2",
		GITHUB_TOKEN: "ghp-3",
		DB_PASSWORD: "pw",
		AWS_SECRET_ACCESS_KEY: "aws",
		my_token: "lower",
		UNSET: undefined,
	};

	it("drops provider keys and every variable named like a credential", () => {
		expect(childEnv(env)).toEqual({ PATH: "/usr/bin", HOME: "/home/a" });
	});

	it("keeps the names the user passes through", () => {
		expect(childEnv(env, ["GITHUB_TOKEN"])).toEqual({ PATH: "/usr/bin", HOME: "/home/a", GITHUB_TOKEN: "ghp-3" });
	});
});

describe("a variable whose value is a known key", () => {
	it("is dropped whatever its name, unless shell.passEnv names it (at the start and again at each command)", async () => {
		const { createRedactor } = await import("../../src/safety/secrets.js");
		const secrets = createRedactor();
		secrets.add("llm-cred-0123456789");
		const env = { PATH: "/usr/bin", LLM_CRED: "llm-cred-0123456789", AUTH_HEADER: "Bearer llm-cred-0123456789", OTHER: "fine" };
		expect(childEnv(env, [], secrets)).toEqual({ PATH: "/usr/bin", OTHER: "fine" });
		const passed = childEnv(env, ["LLM_CRED"], secrets);
		expect(passed).toEqual({ PATH: "/usr/bin", LLM_CRED: "llm-cred-0123456789", OTHER: "fine" });
		const { withoutSecretValues } = await import("../../src/safety/child-env.js");
		expect(withoutSecretValues(passed, secrets)).toEqual(passed);
		expect(withoutSecretValues({ ...passed }, secrets)).toEqual({ PATH: "/usr/bin", OTHER: "fine" });
		expect(childEnv(env, [], createRedactor())).toEqual(env);
	});
});

describe("the bash tool's commands", () => {
	it("never see a known key, also one that became known after the environment was made (env | base64)", async () => {
		const { processSecrets } = await import("../../src/safety/secrets.js");
		const { createBashTool } = await import("../../src/tools/bash.js");
		const bash = createBashTool(process.cwd(), { env: { PATH: process.env.PATH, LLM_CRED: "late-known-cred-42424242", KEEP: "yes" } });
		const run = async () => {
			const result = await bash.execute("t", { command: "env | base64 -w0" });
			const text = result.content[0].type === "text" ? result.content[0].text : "";
			return Buffer.from(text, "base64").toString("utf8");
		};
		expect(await run()).toContain("late-known-cred-42424242");
		processSecrets.add("late-known-cred-42424242");
		const env = await run();
		expect(env).not.toContain("late-known-cred");
		expect(env).toContain("KEEP=yes");
	});
});
