// The demos' Cairo frame drawing, PNG output, GIF writer and scene-file round trip.
#include <cairo.h>
#include <doctest/doctest.h>
#include <gif_lib.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "file_scene.hpp"
#include "frame.hpp"
#include "gif_writer.hpp"
#include "session.hpp"

namespace rigid2d::demos {
namespace {

std::filesystem::path scratchDir() {
    const auto dir = std::filesystem::temp_directory_path() / "rigid2d-demo-tests";
    std::filesystem::create_directories(dir);
    return dir;
}

struct Rgb {
    int r, g, b;
};

Rgb pixelAt(cairo_surface_t* surface, int x, int y) {
    const unsigned char* data = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    const std::uint32_t argb = *reinterpret_cast<const std::uint32_t*>(data + y * stride + 4 * x);
    return {static_cast<int>((argb >> 16) & 0xFF), static_cast<int>((argb >> 8) & 0xFF),
            static_cast<int>(argb & 0xFF)};
}

bool isBackground(Rgb c) { return c.r == 245 && c.g == 245 && c.b == 240; }

} // namespace

TEST_CASE("demo frames: a pyramid renders to a PNG with background, bodies and panel") {
    Session session(sourceOf(*findScene("pyramid")), 6, BroadPhaseType::BruteForce);
    for (int i = 0; i < 10; ++i) session.step();
    Camera camera;
    camera.width = 320;
    camera.height = 240;
    camera.fit(session.scene().view());

    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 240);
    cairo_t* cr = cairo_create(surface);
    FrameOptions options;
    options.panel = true;
    renderFrame(cr, camera, session, options);
    cairo_destroy(cr);
    const std::string path = (scratchDir() / "pyramid.png").string();
    REQUIRE(cairo_surface_write_to_png(surface, path.c_str()) == CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(surface);

    cairo_surface_t* png = cairo_image_surface_create_from_png(path.c_str());
    REQUIRE(cairo_surface_status(png) == CAIRO_STATUS_SUCCESS);
    CHECK(cairo_image_surface_get_width(png) == 320);
    CHECK(cairo_image_surface_get_height(png) == 240);
    cairo_surface_flush(png);
    // The bottom-right corner is plain background; the panel (top-left) is near-white.
    CHECK(isBackground(pixelAt(png, 318, 2)));
    const Rgb panel = pixelAt(png, 10, 30);
    CHECK(panel.r >= 200);
    CHECK(!isBackground(panel));
    // The pyramid's middle, bottom row: a box is drawn there, so it is not background.
    const Vec2 boxCentre = camera.toScreen({0.0f, 0.5f});
    CHECK(
        !isBackground(pixelAt(png, static_cast<int>(boxCentre.x), static_cast<int>(boxCentre.y))));
    // Non-blank: a good share of pixels is not background.
    int drawn = 0;
    for (int y = 0; y < 240; y += 2)
        for (int x = 0; x < 320; x += 2) drawn += isBackground(pixelAt(png, x, y)) ? 0 : 1;
    CHECK(drawn > 320 * 240 / 4 / 50);
    cairo_surface_destroy(png);
}

TEST_CASE("demo frames: the GIF writer writes every frame at its size") {
    const std::string path = (scratchDir() / "frames.gif").string();
    {
        GifWriter gif(path, 40, 30, 5);
        cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 40, 30);
        for (int frame = 0; frame < 3; ++frame) {
            cairo_t* cr = cairo_create(surface);
            cairo_set_source_rgb(cr, frame == 1 ? 1.0 : 0.0, 0.0, 1.0);
            cairo_paint(cr);
            cairo_destroy(cr);
            cairo_surface_flush(surface);
            gif.addFrame(cairo_image_surface_get_data(surface),
                         cairo_image_surface_get_stride(surface));
        }
        cairo_surface_destroy(surface);
        gif.close();
    }
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    REQUIRE(gif != nullptr);
    REQUIRE(DGifSlurp(gif) == GIF_OK);
    CHECK(gif->SWidth == 40);
    CHECK(gif->SHeight == 30);
    CHECK(gif->ImageCount == 3);
    // Frame 1 is magenta, frame 0 blue: the fixed palette keeps both exactly.
    const ColorMapObject* map = gif->SColorMap;
    REQUIRE(map != nullptr);
    const GifColorType blue = map->Colors[gif->SavedImages[0].RasterBits[0]];
    const GifColorType magenta = map->Colors[gif->SavedImages[1].RasterBits[0]];
    CHECK((blue.Red == 0 && blue.Green == 0 && blue.Blue == 255));
    CHECK((magenta.Red == 255 && magenta.Green == 0 && magenta.Blue == 255));
    DGifCloseFile(gif, &error);
}

TEST_CASE("demo scenes: a running scene saved as a scene file loads back as a scene") {
    Session session(sourceOf(*findScene("rain")), 50, BroadPhaseType::BruteForce);
    for (int i = 0; i < 20; ++i) session.step();
    const auto path = scratchDir() / "rain-saved.json";
    saveSessionScene(session, path, 100);

    Session loaded(fileSceneSource(path), 0, BroadPhaseType::BruteForce);
    CHECK(loaded.name() == "rain");
    CHECK(loaded.world().bodyCount() == session.world().bodyCount());
    CHECK(loaded.scene().bounds() == session.scene().bounds());
    std::vector<Vec2> before;
    std::vector<Vec2> after;
    session.world().forEachBody([&](BodyId b) { before.push_back(session.world().position(b)); });
    loaded.world().forEachBody([&](BodyId b) { after.push_back(loaded.world().position(b)); });
    CHECK(before == after);
    loaded.step();
}

} // namespace rigid2d::demos
