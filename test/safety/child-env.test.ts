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
