import { describeCliHabits } from "./cli-habits.js";

// The full run is test/federation-demo.heavy.test.ts.
describeCliHabits({
  bin: "bin/federation-demo.mjs",
  name: "ocp-federation-demo",
  usage: "Usage: ocp-federation-demo",
  helpMentions: "130 when interrupted",
  badUsage: [
    [["--bogus"], "Unknown option '--bogus'"],
    [["extra"], "Unexpected argument 'extra'"],
  ],
});
