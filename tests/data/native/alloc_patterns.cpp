// C++ allocation patterns for the heaptrack and massif tests (tst_native_tools): operator new
// and new[] (which heaptrack hides from the top of backtraces), a growing std::vector
// (allocations inside a template), and delete. Built with -O0 -fno-inline.
#include <cstring>
#include <vector>

struct Node {
    Node* next;
    char payload[120];
};

Node* build_list(int n) {
    Node* head = nullptr;
    for (int i = 0; i < n; ++i) head = new Node{head, {}};
    return head;
}

void free_list(Node* head) {
    while (head) {
        Node* next = head->next;
        delete head;
        head = next;
    }
}

long fill_vector(int n) {
    std::vector<long> v;
    for (int i = 0; i < n; ++i) v.push_back(i);
    long sum = 0;
    for (long x : v) sum += x;
    return sum;
}

char* make_array(std::size_t n) {
    char* p = new char[n];
    std::memset(p, 3, n);
    return p;
}

int main() {
    Node* list = build_list(200);
    long sum = fill_vector(5000);
    char* arrays[5];
    for (int i = 0; i < 5; ++i) arrays[i] = make_array(20000 + 1000 * static_cast<std::size_t>(i));
    free_list(list);
    for (int i = 0; i < 3; ++i) delete[] arrays[i];
    return sum == 12497500 ? 0 : 1; // arrays[3] and arrays[4] leak
}
