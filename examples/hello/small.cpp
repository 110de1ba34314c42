// small.cpp: the greeting printer in miniature, small enough that proving a
// result interval-minimal at bytes takes minutes, not days.
#include <cstdio>
#include <cstddef>

namespace mini {

template <std::size_t N>
struct Text {
    char data[N] = {};
    std::size_t len = 0;
    void push(char c) {
        if (len + 1 < N) data[len++] = c;
    }
};

struct Piece {
    virtual ~Piece() {}
    virtual void emit(Text<32>& out) const = 0;
};

struct Word : Piece {
    explicit Word(const char* w) : word(w) {}
    void emit(Text<32>& out) const override {
        for (const char* p = word; *p; ++p) out.push(*p);
    }
    const char* word;
};

struct Mark : Piece {
    explicit Mark(char c) : mark(c) {}
    void emit(Text<32>& out) const override { out.push(mark); }
    char mark;
};

static void capitalise(Text<32>& t) {
    if (t.len > 0 && t.data[0] >= 'a' && t.data[0] <= 'z')
        t.data[0] = static_cast<char>(t.data[0] - 'a' + 'A');
}

}  // namespace mini

int main() {
    using namespace mini;
    Word hello("hello");
    Mark comma(',');
    Mark space(' ');
    Word world("world");
    Mark bang('!');
    const Piece* parts[] = {&hello, &comma, &space, &world, &bang};
    Text<32> text;
    for (const Piece* p : parts) p->emit(text);
    capitalise(text);
    std::printf("%s\n", text.data);
    return 0;
}
