// web_fetch against real HTTP servers on 127.0.0.1: conversion and sanitising, the size and time caps,
// redirects, and the address check after DNS resolution.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { REFUSED_RANGES, refusedAddress } from "../../src/tools/web-address.js";
import { createWebFetchTool, type WebFetchToolOptions } from "../../src/tools/web-fetch.js";
import { httpServersPerTest } from "../helpers/http-servers.js";

const { serve } = httpServersPerTest();

const loopbackAllowed: WebFetchToolOptions = { hostAllowed: (host) => host === "127.0.0.1" };
async function fetchText(url: string, options: WebFetchToolOptions = loopbackAllowed, extra: Record<string, string> = {}) {
	const result = await createWebFetchTool(options).execute("t1", { url, ...extra });
	return { text: (result.content[0] as { text: string }).text, details: result.details };
}

describe("web_fetch content", () => {
	it("turns HTML into Markdown without scripts, styles or navigation, and makes escapes and invisible characters visible", async () => {
		const html = `<!doctype html><html><head><title>Docs \u202e page</title><style>body{color:red}</style>
			<script>alert("steal")</script></head><body><nav><a href="/x">Menu item</a></nav>
			<main><h1>Install</h1><p>Run <code>pip install x</code>\x1b]52;c;aGk=\x07 now\u200b.</p>
			<p>Hidden\u{E0041}\u{E0042} tag text and \x1b[2J clear</p><ul><li>one</li><li>two</li></ul></main></body></html>`;
		const base = await serve((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
		const { text, details } = await fetchText(`${base}/page`, loopbackAllowed, { prompt: "how to install" });
		const lines = text.split("\n");
		expect(lines[0]).toMatch(/^\[Untrusted web content/);
		expect(text).toContain(`URL: ${base}/page`);
		expect(text).toContain("Title: Docs ⟪U+202E⟫ page");
		expect(text).toContain("Looking for: how to install");
		expect(text).toContain("# Install");
		expect(text).toContain("`pip install x`");
		expect(text).toMatch(/\* one\n\* two/);
		for (const gone of ["alert", "steal", "color:red", "Menu item"]) expect(text).not.toContain(gone);
		// No raw control or invisible character reaches the model.
		expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202e]|\udb40/);
		expect(text).toContain("⟪U+200B⟫");
		expect(text).toContain("⟪U+E0041⟫");
		expect(details).toMatchObject({ status: 200, contentType: "text/html; charset=utf-8" });
	});

	it("converts only what a selector matches; passes JSON and text through; refuses binary", async () => {
		const base = await serve((req, res) => {
			if (req.url === "/json") return res.writeHead(200, { "content-type": "application/json" }).end('{"a": [1, 2]}');
			if (req.url === "/txt") return res.writeHead(200, { "content-type": "text/plain" }).end("plain\ttext");
			if (req.url === "/png")
				return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
			if (req.url === "/unknown") return res.writeHead(200).end(Buffer.from([1, 0, 2, 3]));
			res
				.writeHead(200, { "content-type": "text/html" })
				.end('<body><div id="a"><p>First part</p></div><div id="b"><p>Second part</p></div></body>');
		});
		const selected = await fetchText(`${base}/`, loopbackAllowed, { selector: "#b" });
		expect(selected.text).toContain("Second part");
		expect(selected.text).not.toContain("First part");
		expect((await fetchText(`${base}/json`)).text).toMatch(/\n\{"a": \[1, 2\]\}$/);
		expect((await fetchText(`${base}/txt`)).text).toMatch(/\nplain\ttext$/);
		const png = await fetchText(`${base}/png`);
		expect(png.text).toMatch(/is binary \(image\/png, 7B\): not shown/);
		expect(png.text).not.toContain("PNG");
		expect((await fetchText(`${base}/unknown`)).text).toMatch(/is binary \(unknown/);
	});

	it("reads at most the size cap of a 50 MB body and says so; long output is truncated", async () => {
		let sent = 0;
		const base = await serve((_req, res) => {
			res.writeHead(200, { "content-type": "text/plain" });
			const line = Buffer.from(`${"x".repeat(99)}\n`);
			const chunk = Buffer.concat(Array.from({ length: 640 }, () => line)); // 64 KB
			const pump = () => {
				while (sent < 50 * 1024 * 1024) {
					sent += chunk.length;
					if (!res.write(chunk)) return res.once("drain", pump);
				}
				res.end();
			};
			res.on("close", () => undefined);
			pump();
		});
		const { text, details } = await fetchText(base, { ...loopbackAllowed, maxBytes: 1024 * 1024 });
		expect(details.bytes).toBe(1024 * 1024);
		expect(text).toContain("The page is larger than 1.0MB: only its start was read.");
		expect(text).toMatch(/Showing the first \d+ of \d+ lines/);
		expect(Buffer.byteLength(text)).toBeLessThan(60 * 1024);
		// The transfer was stopped, not drained: far less than 50 MB left the server.
		expect(sent).toBeLessThan(20 * 1024 * 1024);
	});

	it("gives up on a slow body at the time cap", async () => {
		const base = await serve((_req, res) => {
			res.writeHead(200, { "content-type": "text/plain" });
			res.write("first bytes\n");
			// Never ends.
		});
		await expect(fetchText(base, { ...loopbackAllowed, timeoutMs: 500 })).rejects.toThrow(/did not finish within 0.5 s/);
	});

	it("serves a page again from its cache without a second request", async () => {
		let hits = 0;
		const base = await serve((_req, res) => {
			hits++;
			res.writeHead(200, { "content-type": "text/plain" }).end(`hit ${hits}`);
		});
		const tool = createWebFetchTool(loopbackAllowed);
		await tool.execute("a", { url: base });
		const again = await tool.execute("b", { url: base });
		expect(hits).toBe(1);
		expect(again.details.cached).toBe(true);
		expect((again.content[0] as { text: string }).text).toContain("hit 1");
	});
});

describe("web_fetch redirects and addresses", () => {
	it("follows a redirect on the same host, returns one to another host without following it", async () => {
		let otherHit = false;
		const other = await serve((_req, res) => {
			otherHit = true;
			res.end("other");
		});
		const otherPort = new URL(other).port;
		const base = await serve((req, res) => {
			if (req.url === "/a") return res.writeHead(301, { location: "/b" }).end();
			if (req.url === "/b") return res.writeHead(302, { location: `http://localhost:${otherPort}/c` }).end();
			if (req.url === "/meta") return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
			res.end("?");
		});
		const { text, details } = await fetchText(`${base}/a`);
		expect(text).toBe(
			`${base}/b redirects (HTTP 302) to another host: http://localhost:${otherPort}/c\nNot followed: call web_fetch with that URL to fetch it.`,
		);
		expect(details.redirect).toBe(`http://localhost:${otherPort}/c`);
		expect(otherHit).toBe(false);
		expect((await fetchText(`${base}/meta`)).details.redirect).toBe("http://169.254.169.254/latest/meta-data/");
		// Following it by hand is refused without a rule naming the host.
		await expect(fetchText("http://169.254.169.254/latest/meta-data/")).rejects.toThrow(
			/refused: 169\.254\.169\.254 is link-local .*web_fetch\(domain:169\.254\.169\.254\)/,
		);
	});

	it("refuses loopback without a rule naming the host, also through a DNS name that resolves there", async () => {
		let hits = 0;
		const base = await serve((_req, res) => {
			hits++;
			res.end("secret admin page");
		});
		const port = new URL(base).port;
		await expect(fetchText(base, {})).rejects.toThrow(/refused: 127\.0\.0\.1 is loopback \(127\.0\.0\.0\/8\)/);
		await expect(fetchText(`http://localhost:${port}/`, {})).rejects.toThrow(
			/refused: localhost resolves to (127\.0\.0\.1|::1), which is loopback/,
		);
		// A rule naming 127.0.0.1 does not open localhost, nor the reverse.
		await expect(fetchText(`http://localhost:${port}/`, loopbackAllowed)).rejects.toThrow(/refused/);
		await expect(fetchText(`http://[::ffff:127.0.0.1]:${port}/`, loopbackAllowed)).rejects.toThrow(/refused/);
		expect(hits).toBe(0);
		expect((await fetchText(`http://localhost:${port}/`, { hostAllowed: (h) => h === "localhost" })).text).toContain("secret admin page");
	});

	it("refuses other schemes and credentials in the URL with one line", async () => {
		await expect(fetchText("file:///etc/passwd")).rejects.toThrow("web_fetch: only http and https URLs are fetched, not file:");
		await expect(fetchText("not a url")).rejects.toThrow('web_fetch: "not a url" is not a URL');
		await expect(fetchText("http://u:p@example.com/")).rejects.toThrow("user name or password");
	});

	it("classifies addresses by the table", () => {
		const refused = [
			"0.0.0.0",
			"10.1.2.3",
			"100.100.100.200",
			"127.0.0.1",
			"127.9.9.9",
			"169.254.169.254",
			"172.16.0.1",
			"172.31.255.255",
			"192.0.0.192",
			"192.168.1.1",
			"198.18.0.1",
			"224.0.0.1",
			"255.255.255.255",
			"::",
			"::1",
			"fd00:ec2::254",
			"fc00::1",
			"fe80::1",
			"ff02::1",
			"::ffff:127.0.0.1",
			"::ffff:a9fe:a9fe",
			"64:ff9b::10.0.0.1",
			"[::1]",
		];
		for (const address of refused) expect(refusedAddress(address), address).toBeDefined();
		for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
			expect(refusedAddress(address), address).toBeUndefined();
		expect(REFUSED_RANGES.length).toBe(16);
	});
});
