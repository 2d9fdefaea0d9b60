import { describe, expect, it } from "vitest";
import { ResumePoint } from "../src/resume.js";

function point(lastSeq = 0) {
  const sent: string[] = [];
  const moved: number[] = [];
  const resume = new ResumePoint(
    lastSeq,
    (frame) => {
      sent.push(frame);
      return "sent";
    },
    (seq) => moved.push(seq),
  );
  return { resume, sent, moved };
}

describe("ResumePoint: where the client resumes and what it confirms", () => {
  it("moves with each in-order delivery and confirms the highest", () => {
    const { resume, sent, moved } = point(3);
    expect(resume.had(3)).toBe(true);
    expect(resume.had(4)).toBe(false);
    resume.handled(4);
    resume.handled(5);
    expect(resume.lastSeq).toBe(5);
    expect(moved).toEqual([4, 5]);
    resume.confirm();
    expect(sent.map((f) => JSON.parse(f).payload.seq)).toEqual([5]);
    resume.confirm(); // Nothing new: nothing sent.
    expect(sent).toHaveLength(1);
  });

  it("holds still through a priority-ordered page, then moves to its end", () => {
    const { resume, sent, moved } = point(0);
    resume.batch(4, 4);
    for (const seq of [3, 4, 1]) resume.handled(seq);
    expect(resume.lastSeq).toBe(0);
    resume.confirm();
    expect(sent).toEqual([]); // Never a confirmation across a gap.
    expect(resume.had(2)).toBe(false);
    resume.handled(2);
    expect(resume.lastSeq).toBe(4);
    expect(moved).toEqual([4]);
    resume.handled(5); // Live again.
    expect(resume.lastSeq).toBe(5);
    resume.stop();
  });

  it("a page cut short by a lost connection leaves the resume point before it", () => {
    const { resume } = point(10);
    resume.batch(3, 13);
    resume.handled(13);
    resume.handled(11);
    resume.reset(); // New connection: the hub sends the page again.
    expect(resume.lastSeq).toBe(10);
    resume.batch(3, 13);
    for (const seq of [13, 11, 12]) resume.handled(seq);
    expect(resume.lastSeq).toBe(13);
    resume.stop();
  });

  it("ignores a batch that ends at or before the resume point", () => {
    const { resume } = point(20);
    resume.batch(2, 19);
    resume.handled(21);
    expect(resume.lastSeq).toBe(21);
    resume.stop();
  });
});
