// A desktop notification when a long run ends, as the `notifications` setting says; off without it.
import { describe, expect, it } from "vitest";
import { notificationSequence, notificationText } from "../../../src/tui/status/run-notification.js";
import { mountApp } from "./mount-app.js";

async function runOnce(props: Parameters<typeof mountApp>[0]) {
	const mounted = await mountApp(props);
	await mounted.type("go");
	await mounted.type("\r");
	mounted.session.text("done");
	const before = mounted.app.frames.length;
	mounted.session.finish();
	await mounted.type("");
	return { ...mounted, written: mounted.app.frames.slice(before).join("") };
}

describe("App run notification", () => {
	it("OSC 777 when a run of at least afterSeconds ends, naming the folder", async () => {
		const { written } = await runOnce({ notifications: { afterSeconds: 0, method: "osc777" } });
		expect(written).toContain("\x1b]777;notify;Rudder;Rudder: the run in project ended after 0 s\x07");
	});

	it("OSC 9 by default and the bell when chosen", async () => {
		expect((await runOnce({ notifications: { afterSeconds: 0 } })).written).toContain("\x1b]9;Rudder: the run in project ended");
		const bell = (await runOnce({ notifications: { afterSeconds: 0, method: "bell" } })).written;
		expect(bell).toContain("\x07");
		expect(bell).not.toContain("\x1b]");
	});

	it("nothing without the setting, nor for a run shorter than afterSeconds", async () => {
		for (const props of [{}, { notifications: { afterSeconds: 60 } }]) {
			const { written } = await runOnce(props);
			expect(written).not.toContain("\x1b]");
			expect(written).not.toContain("\x07");
		}
	});

	it("the text cannot end the sequence early or reach the terminal: controls and ; are taken out", () => {
		const hostile = "repo\x07\x1b]0;pwned\x1b\\;\x9d\u009c next";
		expect(notificationText(hostile)).toBe("repo ]0 pwned \\ next");
		const sequence = notificationSequence("osc777", hostile);
		expect(sequence).toBe("\x1b]777;notify;Rudder;repo ]0 pwned \\ next\x07");
		expect(sequence.slice(1, -1)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
	});
});
