#pragma once
/// Writes an animated, looping GIF with giflib from Cairo ARGB32 frames, using a fixed 6x7x6
/// colour cube: no per-frame palette search, and the pale, flat colours of the demos survive it.

#include <cstdint>
#include <string>
#include <vector>

struct GifFileType;

namespace rigid2d::demos {

class GifWriter {
public:
    /// Opens `path` for frames of `width` x `height`; throws std::runtime_error on failure.
    GifWriter(const std::string& path, int width, int height, int delayCentiseconds);
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Appends a frame: `stride` bytes per row of native-endian premultiplied ARGB32 pixels.
    void addFrame(const std::uint8_t* pixels, int stride);
    /// Finishes the file; throws std::runtime_error on failure. Called by the destructor if needed.
    void close();

private:
    GifFileType* m_gif = nullptr;
    int m_width;
    int m_height;
    int m_delay;
    std::vector<std::uint8_t> m_row;
};

} // namespace rigid2d::demos
