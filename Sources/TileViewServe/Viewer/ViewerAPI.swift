/// `GET /api/openapi.json`: the view API described in OpenAPI 3.1 (docs/design.md section 11).
enum ViewerAPI {
    static let openAPIDocument = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "tileview view API",
            "version": "1.0.0",
            "description": "Views of an image or a folder of images, driven by the gestures and moves of the tileview command line. A view's frame is byte for byte the PNG that `tileview zoom` or `tileview gallery` writes after the same steps. Views expire when idle and their number is bounded (the view idle longest is dropped first); an unknown or expired view is 404. Errors are one line of plain text."
          },
          "paths": {
            "/api/views": {
              "post": {
                "operationId": "createView",
                "summary": "Open a view of an image, or a gallery of a folder's images (natural order)",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/CreateView"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The new view at fit",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ViewAnswer"
                        }
                      }
                    },
                    "links": {
                      "GetView": {
                        "operationId": "getView",
                        "parameters": {
                          "vid": "$response.body#/view"
                        }
                      },
                      "ApplyGesture": {
                        "operationId": "applyGesture",
                        "parameters": {
                          "vid": "$response.body#/view"
                        }
                      },
                      "ApplyMove": {
                        "operationId": "applyMove",
                        "parameters": {
                          "vid": "$response.body#/view"
                        }
                      },
                      "GetFrame": {
                        "operationId": "getFrame",
                        "parameters": {
                          "vid": "$response.body#/view"
                        }
                      },
                      "DeleteView": {
                        "operationId": "deleteView",
                        "parameters": {
                          "vid": "$response.body#/view"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/NotJSON"
                  },
                  "403": {
                    "$ref": "#/components/responses/CrossSite"
                  },
                  "422": {
                    "$ref": "#/components/responses/Unprocessable"
                  }
                }
              }
            },
            "/api/views/{vid}": {
              "parameters": [
                {
                  "$ref": "#/components/parameters/vid"
                }
              ],
              "get": {
                "operationId": "getView",
                "summary": "The view as it is now",
                "responses": {
                  "200": {
                    "description": "The view",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ViewAnswer"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "delete": {
                "operationId": "deleteView",
                "summary": "Close the view",
                "responses": {
                  "204": {
                    "description": "Closed"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/api/views/{vid}/gestures": {
              "parameters": [
                {
                  "$ref": "#/components/parameters/vid"
                }
              ],
              "post": {
                "operationId": "applyGesture",
                "summary": "Apply a zoom gesture (to the current page of a gallery)",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Gesture"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The view after the gesture",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ViewAnswer"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/NotJSON"
                  },
                  "403": {
                    "$ref": "#/components/responses/CrossSite"
                  },
                  "422": {
                    "$ref": "#/components/responses/Unprocessable"
                  }
                }
              }
            },
            "/api/views/{vid}/moves": {
              "parameters": [
                {
                  "$ref": "#/components/parameters/vid"
                }
              ],
              "post": {
                "operationId": "applyMove",
                "summary": "Move a gallery to another page, or drag between pages",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Move"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The view after the move: its step record in `page`, the new page's zoom state in `state`",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ViewAnswer"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/NotJSON"
                  },
                  "403": {
                    "$ref": "#/components/responses/CrossSite"
                  },
                  "422": {
                    "$ref": "#/components/responses/Unprocessable"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  }
                }
              }
            },
            "/api/views/{vid}/frame.png": {
              "parameters": [
                {
                  "$ref": "#/components/parameters/vid"
                }
              ],
              "get": {
                "operationId": "getFrame",
                "summary": "The current frame: the PNG the command line writes after the same steps",
                "responses": {
                  "200": {
                    "description": "The frame, exactly the viewport's size",
                    "content": {
                      "image/png": {
                        "schema": {
                          "type": "string",
                          "contentMediaType": "image/png"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "503": {
                    "$ref": "#/components/responses/Busy"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "422": {
                    "$ref": "#/components/responses/Unprocessable"
                  }
                }
              }
            }
          },
          "components": {
            "parameters": {
              "vid": {
                "name": "vid",
                "in": "path",
                "required": true,
                "schema": {
                  "type": "string"
                },
                "description": "The view's identifier, as `POST /api/views` returned it"
              }
            },
            "responses": {
              "BadRequest": {
                "description": "A malformed body, gesture or move (the command line's message)",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "NotFound": {
                "description": "No such view (unknown or expired), image, folder or start page",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "NotJSON": {
                "description": "A body that is not application/json",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "CrossSite": {
                "description": "A request from another site (its Origin or Sec-Fetch-Site), refused",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "Busy": {
                "description": "The server's work budget is taken: try again after Retry-After seconds",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "TooLarge": {
                "description": "A body over 64 KiB, or one without a Content-Length",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "Unprocessable": {
                "description": "An image that could not be read or decoded",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "MethodNotAllowed": {
                "description": "A method the path does not take (the Allow header lists those it does)",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "Conflict": {
                "description": "A move on a view of one image",
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              }
            },
            "schemas": {
              "Gesture": {
                "type": "object",
                "required": [
                  "gesture"
                ],
                "properties": {
                  "gesture": {
                    "type": "string",
                    "description": "double-tap X,Y | two-finger-tap | pinch F X,Y | pan DX,DY | zoom-to X,Y,W,H",
                    "examples": [
                      "double-tap 120,80"
                    ],
                    "pattern": "^(double-tap [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?|two-finger-tap|pinch \\+?([1-9][0-9]{0,8}(\\.[0-9]{0,6})?|0?\\.0{0,5}[1-9][0-9]{0,5})([eE][-+]?[0-9]{1,2})? [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?|pan [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?|zoom-to [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,\\+?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,\\+?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?)$"
                  }
                },
                "additionalProperties": false
              },
              "Move": {
                "type": "object",
                "required": [
                  "move"
                ],
                "properties": {
                  "move": {
                    "type": "string",
                    "description": "next | prev | left | right | up | down | drag DX,DY velocity VX,VY (the server also takes the move words in any letter case)",
                    "examples": [
                      "next"
                    ],
                    "pattern": "^(next|prev|left|right|up|down|drag [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?( velocity [-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?,[-+]?([0-9]{1,9}(\\.[0-9]{0,6})?|\\.[0-9]{1,6})([eE][-+]?[0-9]{1,2})?)?)$"
                  }
                },
                "additionalProperties": false
              },
              "Size": {
                "type": "object",
                "required": [
                  "width",
                  "height"
                ],
                "properties": {
                  "width": {
                    "type": "number"
                  },
                  "height": {
                    "type": "number"
                  }
                }
              },
              "Point": {
                "type": "object",
                "required": [
                  "x",
                  "y"
                ],
                "properties": {
                  "x": {
                    "type": "number"
                  },
                  "y": {
                    "type": "number"
                  }
                }
              },
              "Rect": {
                "type": "object",
                "required": [
                  "x",
                  "y",
                  "width",
                  "height"
                ],
                "properties": {
                  "x": {
                    "type": "number"
                  },
                  "y": {
                    "type": "number"
                  },
                  "width": {
                    "type": "number"
                  },
                  "height": {
                    "type": "number"
                  }
                }
              },
              "ZoomState": {
                "type": "object",
                "description": "The zoom state with the keys of `tileview zoom --json`",
                "required": [
                  "image",
                  "viewport",
                  "zoomScale",
                  "minimumZoomScale",
                  "maximumZoomScale",
                  "contentOffset",
                  "contentSize",
                  "imageFrame",
                  "visibleRect"
                ],
                "properties": {
                  "image": {
                    "$ref": "#/components/schemas/Size"
                  },
                  "viewport": {
                    "$ref": "#/components/schemas/Size"
                  },
                  "zoomScale": {
                    "type": "number"
                  },
                  "minimumZoomScale": {
                    "type": "number"
                  },
                  "maximumZoomScale": {
                    "type": "number"
                  },
                  "contentOffset": {
                    "$ref": "#/components/schemas/Point"
                  },
                  "contentSize": {
                    "$ref": "#/components/schemas/Size"
                  },
                  "imageFrame": {
                    "$ref": "#/components/schemas/Rect"
                  },
                  "visibleRect": {
                    "$ref": "#/components/schemas/Rect"
                  }
                }
              },
              "Step": {
                "type": "object",
                "description": "A step record of `tileview gallery --json`",
                "required": [
                  "step",
                  "move",
                  "page",
                  "resident",
                  "loaded",
                  "evicted",
                  "zoomScale"
                ],
                "properties": {
                  "step": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "move": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "page": {
                    "type": "string"
                  },
                  "cell": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    }
                  },
                  "resident": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "maxItems": 3
                  },
                  "loaded": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "evicted": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "zoomScale": {
                    "type": "number"
                  }
                }
              },
              "Placement": {
                "type": "object",
                "required": [
                  "id",
                  "name",
                  "frame",
                  "state",
                  "level"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "description": "The page's IIIF identifier"
                  },
                  "name": {
                    "type": "string"
                  },
                  "frame": {
                    "$ref": "#/components/schemas/Rect"
                  },
                  "state": {
                    "$ref": "#/components/schemas/ZoomState"
                  },
                  "level": {
                    "type": "integer",
                    "minimum": 0
                  }
                }
              },
              "ViewAnswer": {
                "type": "object",
                "required": [
                  "view",
                  "kind",
                  "state",
                  "level",
                  "page",
                  "placements"
                ],
                "properties": {
                  "view": {
                    "type": "string"
                  },
                  "kind": {
                    "enum": [
                      "image",
                      "gallery"
                    ]
                  },
                  "state": {
                    "$ref": "#/components/schemas/ZoomState"
                  },
                  "level": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The level of detail the current page is drawn from"
                  },
                  "page": {
                    "oneOf": [
                      {
                        "$ref": "#/components/schemas/Step"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "pages": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "pageIndex": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "map": {
                    "type": "boolean"
                  },
                  "loaded": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "maxItems": 3,
                    "description": "The pages the server holds open"
                  },
                  "placements": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Placement"
                    }
                  }
                }
              },
              "ImageView": {
                "type": "object",
                "description": "A view of one image",
                "required": [
                  "image",
                  "viewport"
                ],
                "additionalProperties": false,
                "properties": {
                  "image": {
                    "type": "string",
                    "description": "An image's identifier (its path under the served folder, percent-encoded as in IIIF URLs)"
                  },
                  "viewport": {
                    "type": "object",
                    "required": [
                      "width",
                      "height"
                    ],
                    "properties": {
                      "width": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 4096
                      },
                      "height": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 4096
                      }
                    },
                    "additionalProperties": false
                  },
                  "maxScale": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": 64,
                    "description": "The largest zoom scale (default 1)"
                  }
                }
              },
              "FolderView": {
                "type": "object",
                "description": "A gallery of a folder's images in natural order",
                "required": [
                  "folder",
                  "viewport"
                ],
                "additionalProperties": false,
                "properties": {
                  "folder": {
                    "type": "string",
                    "description": "A folder's identifier; the empty string is the served folder itself"
                  },
                  "viewport": {
                    "type": "object",
                    "required": [
                      "width",
                      "height"
                    ],
                    "properties": {
                      "width": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 4096
                      },
                      "height": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 4096
                      }
                    },
                    "additionalProperties": false
                  },
                  "circular": {
                    "type": "boolean",
                    "description": "Folder views: wrap around at the ends"
                  },
                  "peek": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 4096,
                    "description": "Folder views: pixels of each neighbour shown at the sides"
                  },
                  "gap": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 4096,
                    "description": "Folder views: pixels between pages"
                  },
                  "start": {
                    "type": [
                      "string",
                      "integer"
                    ],
                    "description": "Folder views: the first page, by name or index from 0"
                  },
                  "maxScale": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": 64,
                    "description": "The largest zoom scale (default 1)"
                  }
                }
              },
              "CreateView": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/ImageView"
                  },
                  {
                    "$ref": "#/components/schemas/FolderView"
                  }
                ]
              }
            }
          }
        }
        """#
}
