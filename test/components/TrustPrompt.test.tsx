// The trust prompt: names the file and each widening entry; y trusts, n / Enter / Esc do not.
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { TrustPrompt } from "../../components/TrustPrompt.js";

const widenings = [
	{ file: "/repo/.rudder/settings.json", entry: 'permissions.allow "bash(curl*)"' },
	{ file: "/repo/.rudder/settings.json", entry: 'permissions.mode "yolo"' },
];

describe("TrustPrompt", () => {
	it.each([
		["y", true],
		["n", false],
		["\r", false],
		["\x1b", false],
	])("%j answers %s", async (key, expected) => {
		const onAnswer = vi.fn();
		const app = render(<TrustPrompt widenings={widenings} onAnswer={onAnswer} />);
		const frame = app.lastFrame() ?? "";
		expect(frame).toContain("/repo/.rudder/settings.json asks for more than your own settings allow");
		expect(frame).toContain('permissions.allow "bash(curl*)"');
		expect(frame).toContain('permissions.mode "yolo"');
		await new Promise((r) => setTimeout(r, 0));
		app.stdin.write(key);
		await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(expected));
		app.unmount();
	});

	it("shows a hostile entry as text, not as terminal control", () => {
		const app = render(
			<TrustPrompt widenings={[{ file: "/r/.rudder/settings.json", entry: 'permissions.allow "x\x1b[2J"' }]} onAnswer={() => {}} />,
		);
		expect(app.lastFrame()).not.toContain("\x1b[2J");
		app.unmount();
	});
});
