// Build: g++ -O2 -o openh264-decode scripts/openh264-decode.cpp -lopenh264   (Debian: libopenh264-dev)
// Usage: openh264-decode FILE.264 > FILE.yuv   (used by scripts/cross-decode-experiment.sh when g++ and the headers exist)
// Minimal openh264 decode of a raw Annex-B H.264 file to yuv420p on stdout: one access unit per
// DecodeFrameNoDelay call, each returned picture copied out immediately; FlushFrame at the end.
#include <wels/codec_api.h>
#include <cstdio>
#include <cstring>
#include <vector>
static void put(unsigned char** d, SBufferInfo& bi, long& n) {
    const SSysMEMBuffer& m = bi.UsrData.sSystemBuffer;
    for (int p = 0; p < 3; p++) {
        int w = p ? m.iWidth / 2 : m.iWidth, h = p ? m.iHeight / 2 : m.iHeight, s = m.iStride[p ? 1 : 0];
        for (int y = 0; y < h; y++) fwrite(d[p] + (long)y * s, 1, w, stdout);
    }
    n++;
}
int main(int argc, char** argv) {
    FILE* f = fopen(argv[1], "rb");
    std::vector<unsigned char> b;
    unsigned char tmp[1 << 16]; size_t r;
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) b.insert(b.end(), tmp, tmp + r);
    std::vector<size_t> sc;  // start code positions (of the 00 00 01)
    for (size_t i = 0; i + 3 < b.size(); i++) if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) { sc.push_back(i); i += 2; }
    ISVCDecoder* dec; WelsCreateDecoder(&dec);
    SDecodingParam p; memset(&p, 0, sizeof p);
    p.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_DEFAULT;
    dec->Initialize(&p);
    long au_start = -1, n = 0, aus = 0;
    for (size_t k = 0; k < sc.size(); k++) {
        size_t s = sc[k] > 0 && b[sc[k] - 1] == 0 ? sc[k] - 1 : sc[k];
        size_t e = k + 1 < sc.size() ? (sc[k + 1] > 0 && b[sc[k + 1] - 1] == 0 ? sc[k + 1] - 1 : sc[k + 1]) : b.size();
        if (au_start < 0) au_start = s;
        int type = b[sc[k] + 3] & 0x1f;
        if (type == 1 || type == 5) {  // one slice per picture (x264 default with frame threads)
            unsigned char* d[3] = {0, 0, 0}; SBufferInfo bi; memset(&bi, 0, sizeof bi);
            dec->DecodeFrameNoDelay(b.data() + au_start, e - au_start, d, &bi);
            aus++;
            if (bi.iBufferStatus == 1) put(d, bi, n);
            au_start = -1;
        }
    }
    int left = 0; dec->GetOption(DECODER_OPTION_NUM_OF_FRAMES_REMAINING_IN_BUFFER, &left);
    for (int i = 0; i < left; i++) {
        unsigned char* d[3] = {0, 0, 0}; SBufferInfo bi; memset(&bi, 0, sizeof bi);
        dec->FlushFrame(d, &bi);
        if (bi.iBufferStatus == 1) put(d, bi, n);
    }
    fprintf(stderr, "access units %ld, pictures out %ld\n", aus, n);
    dec->Uninitialize(); WelsDestroyDecoder(dec);
}
