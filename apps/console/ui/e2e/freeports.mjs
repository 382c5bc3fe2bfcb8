// Prints N distinct loopback ports that are free now, chosen below the
// kernel's ephemeral range (read from /proc where it exists) so that no
// outgoing connection takes one before the servers bind it.
import { createServer } from "node:net";
import { readFileSync } from "node:fs";

const want = Number(process.argv[2] ?? "1");
let low = 32768;
try {
  low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
} catch {
  // not Linux: keep the IANA default start of the dynamic range
}
const floor = 10000;
const ceiling = Math.max(floor + 1000, low);

const free = (port) =>
  new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });

const picked = new Set();
for (let tries = 0; picked.size < want; tries++) {
  if (tries > 1000) {
    console.error(`freeports: no ${want} free ports between ${floor} and ${ceiling}`);
    process.exit(1);
  }
  const port = floor + Math.floor(Math.random() * (ceiling - floor));
  if (!picked.has(port) && (await free(port))) picked.add(port);
}
console.log([...picked].join(" "));
