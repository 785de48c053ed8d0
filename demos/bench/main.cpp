// rigid2d-bench SUBCOMMAND [flags]: dispatches to the subcommands declared in commands.hpp.

#include <cstdio>
#include <string_view>

#include "commands.hpp"

namespace {

struct Command {
    std::string_view name;
    std::string_view summary;
    int (*run)(int argc, char** argv);
};

// One line per subcommand.
constexpr Command kCommands[] = {
    {"churn", "broad-phase workload of BROADPHASE.md (N moving boxes, all pairs per frame)",
     &rigid2d::bench::runChurnCommand},
    {"scene", "a scene file of FORMAT.md, timed per step; final state and quality figures",
     &rigid2d::bench::runSceneCommand},
    {"quality", "quality figures of any engine's final state of a scene (FORMAT.md)",
     &rigid2d::bench::runQualityCommand},
};

int usage() {
    std::fprintf(stderr,
                 "usage: rigid2d-bench SUBCOMMAND [flags]   (SUBCOMMAND --help for its flags)\n");
    for (const Command& command : kCommands)
        std::fprintf(stderr, "  %-8.*s %.*s\n", static_cast<int>(command.name.size()),
                     command.name.data(), static_cast<int>(command.summary.size()),
                     command.summary.data());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string_view name = argv[1];
    for (const Command& command : kCommands)
        if (command.name == name) return command.run(argc - 1, argv + 1);
    if (name != "--help" && name != "-h")
        std::fprintf(stderr, "rigid2d-bench: unknown subcommand '%s'\n", argv[1]);
    return usage();
}
