// SPDX-License-Identifier: MIT
// A C++ program with deep and varied call stacks, recorded by heaptrack for memviz's
// real-world heaptrack benchmark (bench/native/record_real.sh). Recursion of varying depth
// through distinct template instantiations (each a distinct frame), standard containers that
// allocate on their own (vector growth, map nodes, strings), and a part of the allocations kept
// alive so the heap rises and falls. Deterministic: a fixed-seed generator.
//   c++ -std=c++20 -O1 -g -fno-omit-frame-pointer -fno-inline -o deep_stacks deep_stacks.cpp && ./deep_stacks [ROUNDS]
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

std::mt19937_64 rng(42);
std::vector<std::unique_ptr<char[]>> kept;

template <int Kind>
struct Node {
    std::vector<int> values;
    std::map<int, std::string> names;
};

template <int Kind>
__attribute__((noinline)) void leaf(int size) {
    auto node = std::make_unique<Node<Kind>>();
    for (int i = 0; i < size; ++i) node->values.push_back(i);
    node->names[size] = std::string(static_cast<std::size_t>(size % 97) + 20, 'x');
    if (rng() % 8 == 0) kept.emplace_back(new char[static_cast<std::size_t>(size) * 16 + Kind]);
    if (kept.size() > 4000) kept.erase(kept.begin(), kept.begin() + 2000);
}

template <int Kind>
__attribute__((noinline)) void descend(int depth, int size);

template <int Kind>
__attribute__((noinline)) void branch(int depth, int size) {
    switch (rng() % 4) {
    case 0: descend<(Kind * 7 + 1) % 64>(depth - 1, size); break;
    case 1: descend<(Kind * 5 + 3) % 64>(depth - 1, size + 1); break;
    case 2: descend<(Kind + 1) % 64>(depth - 1, size / 2 + 1); break;
    default: leaf<Kind>(size); break;
    }
}

template <int Kind>
__attribute__((noinline)) void descend(int depth, int size) {
    if (depth <= 0) return leaf<Kind>(size);
    std::string label = "level " + std::to_string(depth); // one more allocation per level
    branch<Kind>(depth, size + static_cast<int>(label.size() % 3));
}

template <int... Kinds>
void run(int rounds, std::integer_sequence<int, Kinds...>) {
    using Entry = void (*)(int, int);
    const Entry entries[] = {&descend<Kinds>...};
    for (int r = 0; r < rounds; ++r)
        entries[rng() % sizeof...(Kinds)](static_cast<int>(rng() % 40) + 4, static_cast<int>(rng() % 64) + 1);
}

} // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
    run(rounds, std::make_integer_sequence<int, 64>{});
    return 0;
}
