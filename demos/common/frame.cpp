#include "frame.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cairo_draw.hpp"

namespace rigid2d::demos {
namespace {

/// `value` with `decimals` digits after the point.
std::string fixed(double value, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string count(std::size_t value) { return std::to_string(value); }

std::string ms(float value) { return fixed(static_cast<double>(value), 3); }

void drawPanel(cairo_t* cr, const std::vector<std::string>& lines) {
    constexpr double kFontSize = 12.0;
    constexpr double kLine = 15.0;
    cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, kFontSize);
    double width = 0.0;
    for (const std::string& line : lines) {
        cairo_text_extents_t extents;
        cairo_text_extents(cr, line.c_str(), &extents);
        width = std::max(width, extents.x_advance);
    }
    cairo_rectangle(cr, 6.0, 6.0, width + 14.0, kLine * static_cast<double>(lines.size()) + 10.0);
    cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.82);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.3, 0.3, 0.35, 1.0);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.08, 0.08, 0.1);
    double y = 6.0 + 5.0 + kFontSize;
    for (const std::string& line : lines) {
        cairo_move_to(cr, 13.0, y);
        cairo_show_text(cr, line.c_str());
        y += kLine;
    }
}

} // namespace

std::vector<std::string> panelLines(const Session& session) {
    const World& world = session.world();
    const StepStats& s = world.stats();
    std::vector<std::string> lines;
    // auto names the kind it runs now and how often it has changed.
    const BroadPhaseStats bp = world.broadPhase().stats();
    std::string kind(world.broadPhase().name());
    if (bp.active != kind)
        kind += " (" + std::string(bp.active) + ", " + std::to_string(bp.switches) +
                (bp.switches == 1 ? " switch)" : " switches)");
    lines.push_back(session.name() + " (size " + std::to_string(session.size()) +
                    "), broad phase " + kind);
    lines.push_back("t " + fixed(static_cast<double>(session.time()), 2) + " s   bodies " +
                    count(s.bodies) + " (awake " + count(s.awakeBodies) + ")");
    lines.push_back("contacts " + count(s.contacts) + " (touching " + count(s.touchingContacts) +
                    "), new pairs " + count(s.newPairs));
    lines.push_back("step " + ms(s.totalMs) + " ms: pairs " + ms(s.pairsMs) + "  contacts " +
                    ms(s.contactsMs) + "  gather " + ms(s.gatherMs));
    lines.push_back("  solve " + ms(s.solveMs) + "  continuous " + ms(s.continuousMs) + "  refit " +
                    ms(s.refitMs) + "  sleep " + ms(s.sleepMs));
    lines.push_back("broad phase: " + count(bp.proxies) + " proxies, " + count(bp.cells) +
                    " cells/nodes, " + count(bp.overlapTests) + " tests");
    const std::string status = session.scene().status();
    if (!status.empty()) lines.push_back(status);
    return lines;
}

void renderFrame(cairo_t* cr, const Camera& camera, const Session& session,
                 const FrameOptions& options) {
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.94);
    cairo_paint(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);

    CairoDraw draw(cr, camera);
    draw.drawShapes = true;
    draw.drawAABBs = options.aabbs;
    draw.drawContacts = options.contacts;
    draw.drawBroadPhase = options.broadPhase;
    // Only what the camera sees is drawn: the world finds it with a region query.
    draw.useCullRegion = true;
    draw.cullRegion = camera.visibleRegion();
    session.scene().draw(session.world(), draw);

    if (options.panel) drawPanel(cr, panelLines(session));
    cairo_restore(cr);
}

} // namespace rigid2d::demos
