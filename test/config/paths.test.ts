import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	cacheDir,
	configDir,
	configFile,
	dataDir,
	inputHistoryFile,
	projectSettingsFile,
	sessionsRoot,
	shownPath,
} from "../../src/config/paths.js";

describe("app paths", () => {
	it("RUDDER_HOME holds the config files, its data folder the sessions and input history", () => {
		const env = { RUDDER_HOME: "/r" };
		expect(configDir(env)).toBe("/r");
		expect(configFile("auth", env)).toBe(join("/r", "auth.json"));
		expect(configFile("models", env)).toBe(join("/r", "models.json"));
		expect(configFile("keybindings", env)).toBe(join("/r", "keybindings.json"));
		expect(sessionsRoot(env)).toBe(join("/r", "data", "sessions"));
		expect(inputHistoryFile(env)).toBe(join("/r", "data", "input-history.jsonl"));
	});

	it("XDG folders are used when RUDDER_HOME is not set", () => {
		const env = { XDG_CONFIG_HOME: "/c", XDG_DATA_HOME: "/d" };
		expect(configFile("settings", env)).toBe(join("/c", "rudder", "settings.json"));
		expect(dataDir(env)).toBe(join("/d", "rudder"));
	});

	it("the cache folder: XDG_CACHE_HOME first (temporary homes can share one), then RUDDER_HOME, then ~/.cache", () => {
		expect(cacheDir({ XDG_CACHE_HOME: "/x", RUDDER_HOME: "/r" })).toBe(join("/x", "rudder"));
		expect(cacheDir({ RUDDER_HOME: "/r" })).toBe(join("/r", "cache"));
		expect(cacheDir({})).toMatch(/[\\/]\.cache[\\/]rudder$/);
	});

	it("a project's settings sit in its .rudder folder", () => {
		expect(projectSettingsFile("/p")).toBe(join("/p", ".rudder", "settings.json"));
	});

	it("shows a path under the home folder as ~/…, for the first-start panel's models.json", () => {
		expect(shownPath(configFile("models", { XDG_CONFIG_HOME: "/home/ada/.config" }), "/home/ada")).toBe("~/.config/rudder/models.json");
		expect(shownPath("/home/ada", "/home/ada/")).toBe("~");
		expect(shownPath("/home/adam/x", "/home/ada")).toBe("/home/adam/x");
		expect(shownPath("/etc/rudder/models.json", "/")).toBe("/etc/rudder/models.json");
	});
});
