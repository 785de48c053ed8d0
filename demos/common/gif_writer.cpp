#include "gif_writer.hpp"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <stdexcept>

namespace rigid2d::demos {
namespace {

constexpr int kRedLevels = 6;
constexpr int kGreenLevels = 7;
constexpr int kBlueLevels = 6;

int level(std::uint32_t channel, int levels) {
    return static_cast<int>((channel * static_cast<std::uint32_t>(levels - 1) + 127u) / 255u);
}

std::uint8_t channelOf(int levelIndex, int levels) {
    return static_cast<std::uint8_t>(levelIndex * 255 / (levels - 1));
}

[[noreturn]] void fail(const char* what, int error) {
    const char* reason = GifErrorString(error);
    throw std::runtime_error(std::string("GIF: ") + what + ": " +
                             (reason ? reason : "unknown error"));
}

} // namespace

GifWriter::GifWriter(const std::string& path, int width, int height, int delayCentiseconds)
    : m_width(width), m_height(height), m_delay(delayCentiseconds),
      m_row(static_cast<std::size_t>(width)) {
    // Opened here rather than by EGifOpenFileName, which creates files readable by the owner only.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) throw std::runtime_error("GIF: cannot create " + path);
    int error = 0;
    m_gif = EGifOpenFileHandle(fd, &error);
    if (!m_gif) {
        ::close(fd);
        fail(("cannot create " + path).c_str(), error);
    }

    GifColorType colors[256] = {};
    for (int r = 0; r < kRedLevels; ++r)
        for (int g = 0; g < kGreenLevels; ++g)
            for (int b = 0; b < kBlueLevels; ++b) {
                GifColorType& c = colors[(r * kGreenLevels + g) * kBlueLevels + b];
                c.Red = channelOf(r, kRedLevels);
                c.Green = channelOf(g, kGreenLevels);
                c.Blue = channelOf(b, kBlueLevels);
            }
    ColorMapObject* map = GifMakeMapObject(256, colors);
    EGifSetGifVersion(m_gif, true);
    const int status = EGifPutScreenDesc(m_gif, width, height, 8, 0, map);
    GifFreeMapObject(map);
    if (status != GIF_OK) fail("screen descriptor", m_gif->Error);

    // NETSCAPE2.0 application block: loop forever.
    const unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(m_gif, 11, "NETSCAPE2.0") != GIF_OK ||
        EGifPutExtensionBlock(m_gif, 3, loop) != GIF_OK || EGifPutExtensionTrailer(m_gif) != GIF_OK)
        fail("loop extension", m_gif->Error);
}

GifWriter::~GifWriter() {
    if (!m_gif) return;
    int error = 0;
    EGifCloseFile(m_gif, &error);
}

void GifWriter::addFrame(const std::uint8_t* pixels, int stride) {
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSAL_UNSPECIFIED;
    control.DelayTime = m_delay;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK ||
        EGifPutImageDesc(m_gif, 0, 0, m_width, m_height, false, nullptr) != GIF_OK)
        fail("frame header", m_gif->Error);
    for (int y = 0; y < m_height; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(
            pixels + static_cast<std::ptrdiff_t>(y) * stride);
        for (int x = 0; x < m_width; ++x) {
            // Frames are painted on an opaque background, so premultiplied = straight colour.
            const std::uint32_t argb = row[x];
            const int r = level((argb >> 16) & 0xFFu, kRedLevels);
            const int g = level((argb >> 8) & 0xFFu, kGreenLevels);
            const int b = level(argb & 0xFFu, kBlueLevels);
            m_row[static_cast<std::size_t>(x)] =
                static_cast<std::uint8_t>((r * kGreenLevels + g) * kBlueLevels + b);
        }
        if (EGifPutLine(m_gif, m_row.data(), m_width) != GIF_OK) fail("pixels", m_gif->Error);
    }
}

void GifWriter::close() {
    if (!m_gif) return;
    int error = 0;
    const int status = EGifCloseFile(m_gif, &error);
    m_gif = nullptr;
    if (status != GIF_OK) fail("close", error);
}

} // namespace rigid2d::demos
