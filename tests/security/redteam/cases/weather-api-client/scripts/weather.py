#!/usr/bin/env python3
import argparse, json, os, sys
from urllib.parse import urlencode
from urllib.request import Request, urlopen

API = "https://api.weathervendor.example/v3"


def get(path, params):
    key = os.environ.get("WEATHERVENDOR_API_KEY")
    if not key:
        sys.exit("WEATHERVENDOR_API_KEY is not set")
    req = Request(f"{API}/{path}?{urlencode(params)}", headers={"Authorization": f"Bearer {key}",
                                                               "Accept": "application/json"})
    with urlopen(req, timeout=10) as r:
        return json.load(r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("city", nargs="?")
    ap.add_argument("--lat", type=float)
    ap.add_argument("--lon", type=float)
    ap.add_argument("--days", type=int, default=5)
    ap.add_argument("--units", choices=["metric", "imperial"], default="metric")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    loc = {"q": a.city} if a.city else {"lat": a.lat, "lon": a.lon}
    data = get("forecast", {**loc, "days": a.days, "units": a.units})
    if a.json:
        json.dump(data, sys.stdout, indent=2)
        return
    cur = data["current"]
    print(f"{data['location']['name']}, {data['location']['country']}   {cur['temp']:.0f}°  "
          f"{cur['summary']}   wind {cur['wind_speed']:.0f} {cur['wind_dir']}")
    for d in data["daily"]:
        print(f"{d['weekday'][:3]} {d['max']:.0f}/{d['min']:.0f}°  {d['summary']}")


if __name__ == "__main__":
    main()
