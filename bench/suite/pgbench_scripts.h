// pgbench scripts with the engine's transaction shape (store.cc,
// resolve.cc, batch_writer.cc): the same statements, in the same order and
// the same round trips, prepared. The statements are not retyped: each is
// the engine's Statement constant (engine/detail/statements.h) or
// BeginCalls() (begin_sql.h), named once in pgbench_scripts.cc, its $n parameters bound
// to pgbench variables and literals; a renamed statement is a one-line
// change there. What pgbench leaves
// out is what makes the engine an engine: normalization, the lock plan, the
// matcher and the C++ trait merge. So pgbench's throughput is the database's
// own limit for this work on this machine.
//
// Round trips mirror the engine's (engine/detail/tx.h). The engine sends
// statements together as one pipelined message (engine/detail/pg_conn.h):
// its opening statements (BEGIN ISOLATION LEVEL READ COMMITTED; the lock
// timeout; the advisory key locks) with the candidate read, the person row
// locks with their re-read, and its writes with COMMIT. Here each such
// message is one pipeline too (\startpipeline ... \endpipeline), in -M
// prepared: prepared statements, one Sync, one wait for the server.
//
// Lock keys and match keys are random numbers: nothing else takes them,
// exactly as for the engine's fresh records.
//
//   PgbenchNewScript     (a), the new half of (d): [opening (the keys the
//                        built-in model locks for (a)'s record: email, phone
//                        and its blocking keys) + candidate read (with the
//                        counts of name, birth date and postal code)]; [write
//                        the person (its id handed out) + 5 identifiers + its
//                        blocking keys (kCreatePersons) + COMMIT]. 2.
//   PgbenchUpdateScript  (b), (c), the updates of (d): [opening (1 key:
//                        email) + candidate read]; [FOR UPDATE on the
//                        person + re-read]; [write traits + COMMIT]. 3.
//                        Needs -D first=<F> -D persons=<N>: persons F..N
//                        are updated.
//   PgbenchBridgeScript  the bridging tenth of (d): the email of person 2p+1
//                        with the phone of person 2p+2, each pair once:
//                        [opening (2 keys) + candidate read]; [FOR UPDATE
//                        on both + re-read]; [move identifiers, redirect
//                        and delete, write the survivor (8 composite match
//                        keys, merged traits) + COMMIT]. 3. Pairs are
//                        numbered client_id + nclients * round (round
//                        counts the client's bridges: pgbench variables
//                        live as long as the client); once 2p+2 > half the
//                        script runs the update shape instead, as the
//                        workload does. Needs -D nclients, -D half,
//                        -D round=0, and the update's first/persons.
// Pure functions; thread-safe.
#pragma once

#include <string>

#include "matcher/lock_plan.h"

namespace idres::bench {

// What the built-in model plans for a record of scenario (a), normalized as
// the engine normalizes it: its lock keys (strong values and blocking keys)
// and the blocking keys its new person stores.
LockPlan NewRecordPlan();

std::string PgbenchNewScript();
std::string PgbenchUpdateScript();
std::string PgbenchBridgeScript();

}  // namespace idres::bench
