#pragma once
// The subcommands of rigid2d-bench. Each takes the arguments after its name (argv[0] is the
// subcommand) and returns the process exit code: 0 ok, 1 failure (e.g. a
// refused scene file), 2 bad command line.

namespace rigid2d::bench {

/// `churn`: the broad-phase workload of demos/bench/BROADPHASE.md.
int runChurnCommand(int argc, char** argv);
/// `scene`: a scene file of demos/bench/FORMAT.md, timed step by step.
int runSceneCommand(int argc, char** argv);
/// `quality`: the quality figures of a final state of a scene (any engine's).
int runQualityCommand(int argc, char** argv);

} // namespace rigid2d::bench
