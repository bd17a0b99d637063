import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error the bench is plain JavaScript run by node without a build
import { cpuMeter } from "../../bench/lib/cpu-meter.mjs";
// @ts-expect-error the bench is plain JavaScript run by node without a build
import { descendants, treeCpuSeconds } from "../../bench/lib/terminal.mjs";

// A parent that waits a moment (the meter is set on it meanwhile), then runs a child that burns 300 ms
// of CPU and exits: the child was forked after the meter started and is gone when it is read. The child
// counts its own CPU time, not the clock's: on a loaded machine 300 ms of wall time is less CPU.
const PARENT = `
setTimeout(() => {
	const c = require("node:child_process").spawn(process.execPath, ["-e", "while (process.cpuUsage().user < 300000);"], { stdio: "inherit" });
	c.on("exit", () => process.stdout.write("done\\n"));
}, 300);
setInterval(() => {}, 1000);`;

describe("cpuMeter", () => {
	it("counts a child forked after it started and already exited, then removes its cgroup", async () => {
		const parent = spawn(process.execPath, ["-e", PARENT], { stdio: ["ignore", "pipe", "inherit"] });
		try {
			const meter = cpuMeter(() => descendants(parent.pid as number), treeCpuSeconds);
			const before = meter.seconds();
			await new Promise<void>((resolve) => parent.stdout.on("data", (d) => String(d).includes("done") && resolve()));
			const spent = meter.seconds() - before;
			expect(spent).toBeGreaterThan(0.2);
			expect(spent).toBeLessThan(5);
			meter.close();
			if (meter.method === "cgroup") {
				const mine = readdirSync("/sys/fs/cgroup/cpuacct").filter((n) => n.startsWith(`rudder-bench-${process.pid}-`));
				expect(mine).toEqual([]);
			} else {
				expect(existsSync(`/proc/${parent.pid}`)).toBe(true);
			}
		} finally {
			parent.kill("SIGKILL");
		}
	});

	it("a listed child that has exited before it could be moved does not cost the tree its cgroup", () => {
		const parent = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		try {
			const meter = cpuMeter(() => [parent.pid, 2 ** 22 + 12345], treeCpuSeconds);
			if (readdirSync("/sys/fs/cgroup").includes("cpuacct")) expect(meter.method).toBe("cgroup");
			expect(meter.seconds()).toBeGreaterThanOrEqual(0);
			meter.close();
		} finally {
			parent.kill("SIGKILL");
		}
	});
});
