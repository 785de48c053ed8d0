// rigid2d-png-check FILE WIDTH HEIGHT: exit 0 when FILE is a PNG of that size that is not blank
// (at least a few distinct colours and 1% of pixels off the most common colour). Used by the
// runner and viewer command-line tests.
#include <cairo.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: rigid2d-png-check FILE WIDTH HEIGHT\n");
        return 2;
    }
    cairo_surface_t* png = cairo_image_surface_create_from_png(argv[1]);
    if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) {
        std::fprintf(stderr, "%s: not a readable PNG\n", argv[1]);
        return 1;
    }
    const int width = cairo_image_surface_get_width(png);
    const int height = cairo_image_surface_get_height(png);
    int status = 0;
    if (width != std::atoi(argv[2]) || height != std::atoi(argv[3])) {
        std::fprintf(stderr, "%s: %dx%d, expected %sx%s\n", argv[1], width, height, argv[2],
                     argv[3]);
        status = 1;
    }
    cairo_surface_flush(png);
    const unsigned char* data = cairo_image_surface_get_data(png);
    const int stride = cairo_image_surface_get_stride(png);
    std::map<std::uint32_t, long> counts;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            ++counts[*reinterpret_cast<const std::uint32_t*>(data + y * stride + 4 * x) &
                     0xFFFFFFu];
    long most = 0;
    for (const auto& entry : counts) most = entry.second > most ? entry.second : most;
    const long total = static_cast<long>(width) * height;
    if (counts.size() < 8 || total - most < total / 100) {
        std::fprintf(stderr, "%s: blank (%zu colours, %ld of %ld pixels off the main colour)\n",
                     argv[1], counts.size(), total - most, total);
        status = 1;
    }
    cairo_surface_destroy(png);
    if (status == 0) std::printf("%s: %dx%d, %zu colours\n", argv[1], width, height, counts.size());
    return status;
}
