import { Deadlines } from "@ocp/types";

/** The deadlines of every guarded leg of this process's hosts (one timer for all of them). */
export const LEG_DEADLINES = new Deadlines();
