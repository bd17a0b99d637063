import { describe, expect, it } from "vitest";
import { bypassesProxy, proxyAuthorization, proxyFor } from "../../src/tools/web-proxy.js";

describe("proxyFor", () => {
	const https = new URL("https://docs.python.org/3/");
	const http = new URL("http://example.com/");

	it("takes https_proxy for https and http_proxy for http, lower case first, a bare host:port as http", () => {
		expect(proxyFor(https, { HTTPS_PROXY: "http://proxy:3128" })?.href).toBe("http://proxy:3128/");
		expect(proxyFor(https, { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2" })?.host).toBe("lower:1");
		expect(proxyFor(http, { HTTPS_PROXY: "http://proxy:3128" })).toBeUndefined();
		expect(proxyFor(http, { HTTP_PROXY: "proxy.corp:8080" })?.href).toBe("http://proxy.corp:8080/");
		expect(proxyFor(https, {})).toBeUndefined();
		expect(proxyFor(https, { HTTPS_PROXY: "  " })).toBeUndefined();
	});

	it("refuses, rather than going direct, a proxy that is not http://", () => {
		expect(() => proxyFor(https, { HTTPS_PROXY: "socks5://127.0.0.1:1080" })).toThrow(
			"web_fetch: HTTPS_PROXY is socks5://127.0.0.1:1080; only an http:// proxy is supported",
		);
		expect(() => proxyFor(https, { HTTPS_PROXY: "http://[bad" })).toThrow("web_fetch: HTTPS_PROXY is a value that is not a URL");
	});

	it("goes direct for what no_proxy names: *, a host, a domain and its subdomains, an address, with or without a port", () => {
		expect(bypassesProxy("docs.python.org", "python.org")).toBe(true);
		expect(bypassesProxy("python.org", ".python.org")).toBe(true);
		expect(bypassesProxy("docs.python.org", "*.python.org")).toBe(true);
		expect(bypassesProxy("notpython.org", "python.org")).toBe(false);
		expect(bypassesProxy("127.0.0.1", "localhost, 127.0.0.1:8080")).toBe(true);
		expect(bypassesProxy("[::1]", "[::1]:80")).toBe(true);
		expect(bypassesProxy("anything", "*")).toBe(true);
		expect(bypassesProxy("anything", "")).toBe(false);
		expect(proxyFor(https, { HTTPS_PROXY: "http://p:1", NO_PROXY: "python.org" })).toBeUndefined();
	});

	it("sends the proxy's user name and password as Basic auth", () => {
		expect(proxyAuthorization(new URL("http://al%40x:s%3Ae@p:1"))).toEqual({
			"proxy-authorization": `Basic ${Buffer.from("al@x:s:e").toString("base64")}`,
		});
		expect(proxyAuthorization(new URL("http://p:1"))).toEqual({});
	});
});
