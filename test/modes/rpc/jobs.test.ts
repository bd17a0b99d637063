// Background jobs over rpc (built CLI): job_started / job_exited events, list_jobs, kill_job, and
// background_bash moving a running bash call to the background (Ctrl+B's rpc form).
import { describe, expect, it } from "vitest";
import { textBody, toolCallRecords } from "../../helpers/openai-chunks.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";

const LONG = 90_000;
const cli = cliPerTest();
const response = (id: string) => (line: any) => line.type === "response" && line.id === id;

describe("--mode rpc background jobs", () => {
	it("reports a job's start and end, lists it, kills it; background_bash moves a running command", { timeout: LONG }, async () => {
		const { server } = await cli.setUp({ modelIds: ["mock-1"] });
		const client = cli.rpc(["--permission-mode", "yolo"]);
		server.enqueue(
			{ kind: "sse", chunks: toolCallRecords("bash", ['{"command":"echo up; sleep 60","run_in_background":true}']) },
			{ kind: "sse", chunks: [textBody("started")] },
		);
		client.send({ id: "p1", type: "prompt", message: "start a job" });
		const started = await client.waitFor((l) => l.type === "job_started");
		expect(started.job).toMatchObject({ id: "bg1", command: "echo up; sleep 60", status: "running" });
		await client.waitFor((l) => l.type === "agent_end");

		client.send({ id: "l1", type: "list_jobs" });
		expect((await client.waitFor(response("l1"))).data.jobs).toMatchObject([{ id: "bg1", status: "running" }]);
		client.send({ id: "k1", type: "kill_job", jobId: "bg1" });
		expect((await client.waitFor(response("k1"))).data.job).toMatchObject({ id: "bg1", status: "killed" });
		expect((await client.waitFor((l) => l.type === "job_exited")).job).toMatchObject({ id: "bg1", status: "killed" });
		client.send({ id: "k2", type: "kill_job", jobId: "bg9" });
		expect(await client.waitFor(response("k2"))).toMatchObject({ success: false, error: 'no background job "bg9"' });
		client.send({ id: "k3", type: "kill_job" });
		expect((await client.waitFor(response("k3"))).success).toBe(false);

		server.enqueue(
			{ kind: "sse", chunks: toolCallRecords("bash", ['{"command":"echo serving; sleep 60"}'], "call_2") },
			{ kind: "sse", chunks: [textBody("moved")] },
		);
		client.send({ id: "p2", type: "prompt", message: "serve in the foreground" });
		await client.waitFor((l) => l.type === "tool_execution_start" && l.toolCallId === "call_2");
		let moved: string[] = [];
		for (let i = 0; i < 100 && moved.length === 0; i++) {
			client.send({ id: `b${i}`, type: "background_bash" });
			moved = (await client.waitFor(response(`b${i}`))).data.jobs;
			if (moved.length === 0) await new Promise((r) => setTimeout(r, 50));
		}
		expect(moved).toEqual(["bg2"]);
		const result = await client.waitFor((l) => l.type === "tool_execution_end" && l.toolCallId === "call_2");
		expect(JSON.stringify(result.result)).toContain("as job bg2; it keeps running");
		await client.waitFor((l) => l.type === "agent_end" && JSON.stringify(l.messages.at(-1)).includes("moved"));
		client.send({ id: "k4", type: "kill_job", jobId: "bg2" });
		expect((await client.waitFor(response("k4"))).data.job).toMatchObject({ id: "bg2", status: "killed" });
		expect((await client.end()).code).toBe(0);
	});
});
