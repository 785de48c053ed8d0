#include "file_scene.hpp"

#include <memory>
#include <utility>

namespace rigid2d::demos {
namespace {

class FileScene final : public Scene {
public:
    explicit FileScene(std::shared_ptr<const scene_file::SceneDesc> desc)
        : m_desc(std::move(desc)) {}

    void build(World& world, int /*size*/) override {
        scene_file::buildScene(*m_desc, world);
        // The camera frames the bodies as built: a file's bounds are often far larger.
        m_view = shapeBounds(world, m_bounds);
        if (m_desc->hasBounds) {
            m_bounds = m_desc->bounds;
        } else {
            const Vec2 margin = extents(m_view) + Vec2{10.0f, 10.0f};
            m_bounds = {m_view.lower - margin, m_view.upper + margin};
        }
    }
    [[nodiscard]] AABB view() const override { return m_view; }

private:
    std::shared_ptr<const scene_file::SceneDesc> m_desc;
    AABB m_view{};
};

} // namespace

SceneSource fileSceneSource(const std::filesystem::path& path) {
    auto desc = std::make_shared<const scene_file::SceneDesc>(scene_file::readSceneFile(path));
    std::string name = desc->name.empty() ? path.stem().string() : desc->name;
    return {std::move(name), 1,
            [desc] { return std::unique_ptr<Scene>(std::make_unique<FileScene>(desc)); }};
}

void saveSessionScene(const Session& session, const std::filesystem::path& path, int steps) {
    const scene_file::SceneDesc desc = scene_file::captureScene(
        session.world(), session.name(), kSceneTimeStep, steps, session.scene().bounds());
    scene_file::writeSceneFile(desc, path);
}

} // namespace rigid2d::demos
