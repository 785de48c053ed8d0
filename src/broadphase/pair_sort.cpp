#include "broadphase/pair_sort.hpp"

#include <algorithm>

namespace rigid2d::detail {

void sortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& /*scratch*/) {
    std::sort(pairs.begin(), pairs.end());
}

} // namespace rigid2d::detail
